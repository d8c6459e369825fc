"""What reading one tree's notes may cost the trusted side, whatever the child sends.

Notes (the entry functions' calls and returns) are the one part of the wire whose volume
the student's code chooses freely: requests are capped by the tree host, printed output
by the output flood limit, the report comes once. Each note is read and kept, so their
number and the time spent reading them are bounded here, in proportion to the tree; past
a bound the tree ends as a protocol violation (see :mod:`worker.sandbox.treeserver`). The
size of one value is bounded where it is read (:data:`~worker.sandbox.reports.VALUE_FIELD_LIMIT`).
"""

from __future__ import annotations

from dataclasses import dataclass

NOTES_PER_NODE = 8
"""An honest search notes a call and a return per node it searches. The library's wrong
implementations that search each child twice note up to 24 per node (a subtree searched
2 ** depth times), but at most 6,784 notes in all, on the shipped exercises' public trees
and on hidden-tree candidates of up to 586 nodes (run with ``run_local``: 180 per exercise,
and the 6 largest of 1,500): the part for the recursion limit (20,000 notes at least)
covers them with room to spare, and a tree would need over 600 nodes and such a search
before its own part mattered; by then that search also nears the tree's request cap."""
NOTES_FIXED = 1000
RECURSIONS_PER_TREE = 2
"""A runaway recursion notes a call per level until the recursion limit stops it; a search
may catch that and go on, once or twice."""
NOTES_BETWEEN_GAME_CALLS_SLACK = 8
DECODE_SECONDS = 1.0
DECODE_SECONDS_PER_NODE = 50e-6
"""Reading values written as JSON (exact fractions, huge integers) is the costly part of a
note: about 3 microseconds for a small fraction, 6 for the longest value a child sends. An
honest search of fractions (expectimax) notes about two values per node, so a second
covers trees of tens of thousands of nodes several times over; the allowance per node
keeps larger trees in reach."""


@dataclass(frozen=True, slots=True)
class NoteBounds:
    """The most notes one tree may bring, in all and between two game calls, and the CPU
    seconds the trusted side may spend reading them."""

    per_tree: int
    per_game_call: int
    decode_seconds: float

    @classmethod
    def for_tree(cls, nodes: int, recursion_limit: int) -> NoteBounds:
        """The bounds of a tree of ``nodes`` nodes searched under ``recursion_limit``."""
        return cls(
            per_tree=NOTES_PER_NODE * nodes + RECURSIONS_PER_TREE * recursion_limit + NOTES_FIXED,
            # Between two game calls (requests or calls answered from told facts) an honest
            # search notes the returns of the frames it leaves and one call: at most one note
            # per frame of its stack, which the recursion limit bounds. A recursion that asks
            # the game nothing must end as the student's RecursionError, not as a violation:
            # hence the recursion limit rather than the tree's height.
            per_game_call=recursion_limit + NOTES_BETWEEN_GAME_CALLS_SLACK,
            decode_seconds=DECODE_SECONDS + DECODE_SECONDS_PER_NODE * nodes,
        )


def submission_decode_seconds(nodes: int) -> float:
    """The CPU seconds the trusted side may spend reading values over all the trees of one
    submission, ``nodes`` nodes in all: one tree's allowance for them all, so that a child
    that stays just under each tree's bound cannot make the grader pay it once per tree."""
    return DECODE_SECONDS + DECODE_SECONDS_PER_NODE * nodes
