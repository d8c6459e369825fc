"""The budgets of the work an exercise's author asks of the workers every course shares.

An exercise file is an instructor's, and an instructor is trusted with their own course
only: what their file asks of a worker (hidden trees drawn for every grading, the pool of
catchers judged against the library, the reference searches of its public trees) must fit
budgets that no file can raise. Each budget is counted in nodes, never in seconds: the
work is then the same on every worker and on every machine (a pool cut short by a clock
would differ from one worker to the next), and the seconds and bytes follow from the
nodes (``bench/budgets.py`` measures them).

* A policy whose worst case does not fit is refused where the file is read, with its file,
  line and column (:func:`policy_problems`);
* the pool's walk stops once its work or its trees reach their budget, and says what it
  left uncaught (:func:`reference.hidden.selection.build_pool`).
"""

from __future__ import annotations

from dataclasses import dataclass

HIDDEN_TREE_NODES = 10_000
"""The most nodes one hidden tree may have in the policy's worst case (every internal
node with ``max_branching`` children, down to ``max_depth``). The default policy's worst
case is 1,365; depth 6 at branching 4 is 5,461."""
HIDDEN_DRAW_NODES = 100_000
"""The most nodes one grading's hidden trees may have between them in the worst case
(``count`` times a tree's): every grading draws them again."""
POOL_WORK = 4_000_000
"""The pool's work: the game calls the wrong implementations judged on its candidates made
(each trusted run stops at :data:`reference.hidden.trusted.CALLS_PER_NODE` calls a node).
The shipped exercises' pools make 20,000 to 100,000; a million is about a second."""
POOL_NODES = 150_000
"""The nodes of the catchers a pool keeps (with each one's reference search) in all."""
PUBLIC_NODES = 50_000
"""The nodes of an exercise's public trees in all: each is searched by the reference on
upload and by every submission's grading."""
WIDE_EXTRA = 1
"""How many children more than the widest public node and ``max_branching`` the widest
node of a hidden tree has (where :data:`HIDDEN_TREE_NODES` allows), so that a search that
looks at a fixed number of moves fails."""

LIMIT_CPU_SECONDS = 10.0
"""The most CPU time an exercise may allow a submission's search on one tree."""
LIMIT_WALL_SECONDS = 30.0
"""The most real time an exercise may allow one tree."""
LIMIT_SUBMISSION_SECONDS = 120.0
"""The most real time an exercise may allow one submission over all its trees."""
LIMIT_MEMORY_MB = 1024
"""The most memory an exercise may allow a submission's search."""


def full_tree_nodes(depth: int, branching: int) -> int:
    """The nodes of a tree where every node above ``depth`` has ``branching`` children."""
    return sum(branching**level for level in range(depth + 1))


@dataclass(frozen=True, slots=True)
class HiddenShape:
    """What a hidden-tree policy may cost: its worst tree, and how wide its widest node is."""

    worst_tree: int
    """Nodes of the policy's worst-case tree, with the wide node."""
    width: int
    """The children of the widest node of each hidden tree."""


def hidden_shape(count: int, max_depth: int, max_branching: int, widest_public: int) -> HiddenShape:
    """The worst case of a policy, and the width of its trees' wide node: one more child
    than ``max_branching`` and than the widest public node, as far as the budgets of a tree
    and of a draw allow (the wide node's extra children are leaves, each one node more)."""
    limit = min(HIDDEN_TREE_NODES, HIDDEN_DRAW_NODES // max(count, 1))
    full = full_tree_nodes(max_depth, max_branching)
    wanted = max(max_branching, widest_public) + WIDE_EXTRA
    width = max(max_branching, min(wanted, max_branching + max(0, limit - full)))
    return HiddenShape(full + width - max_branching, width)


def largest_depth(max_branching: int, *, limit: int = HIDDEN_TREE_NODES) -> int:
    """The deepest ``max_depth`` whose worst case fits ``limit`` at ``max_branching``."""
    depth = 0
    while full_tree_nodes(depth + 1, max_branching) <= limit and depth < 64:
        depth += 1
    return depth


def policy_problems(
    count: int, max_depth: int, max_branching: int
) -> list[tuple[tuple[str, ...], str]]:
    """Why a hidden-tree policy does not fit the budgets, each with the key (a path under
    ``hidden_trees``) it is best shown at; empty when it fits."""
    full = full_tree_nodes(max_depth, max_branching)
    if full > HIDDEN_TREE_NODES:
        deepest = largest_depth(max_branching)
        return [
            (
                ("max_depth",),
                f"max_depth {max_depth} with max_branching {max_branching} allows hidden trees "
                f"of up to {full:,} nodes; the budget is {HIDDEN_TREE_NODES:,} per tree "
                f"(at max_branching {max_branching}, max_depth {deepest} fits)",
            )
        ]
    if count * full > HIDDEN_DRAW_NODES:
        fits = HIDDEN_DRAW_NODES // full
        return [
            (
                ("count",),
                f"count {count} hidden trees of up to {full:,} nodes each is {count * full:,} "
                f"nodes per grading; the budget is {HIDDEN_DRAW_NODES:,} "
                f"(at this max_depth and max_branching, count {fits} fits)",
            )
        ]
    return []
