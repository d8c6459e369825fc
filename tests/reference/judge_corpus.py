"""A fixed corpus of judgements, to tell whether a change to the judge changed a verdict.

Each case is drawn from its own seed (``random.Random``, not Hypothesis: the same cases on
every run and every version): a random tree, a reference search under random options, and
a student's search, simulated with random bugs and then, for some cases, tampered with
(events dropped, repeated, swapped, cut short, or about nodes the tree does not have), so
that every path of :mod:`reference.feedback` is taken. :func:`fingerprint` keeps what a
judgement says about each node and about the tree, not its sentences: a reworded message
is no changed verdict.

``tests/reference/data/judge_fingerprints.json`` holds the fingerprints the judge of
commit 4d2a374 gave (before the judge was made linear). Regenerate it only for a change
meant to alter verdicts::

    .venv/bin/python -m tests.reference.judge_corpus > tests/reference/data/judge_fingerprints.json
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import replace
from fractions import Fraction

from reference.feedback import TreeFeedback, judge
from reference.observed import Call, Observed, ObservedEvent, Return, Visit
from reference.search import SearchOptions, SearchResult, search
from reference.tree import Edge, Kind, Node, Number, Tree
from tests.reference.test_feedback_simulator import Student, observed_from_trace, simulate

CASES = 600
"""Small trees, every kind of bug."""
LARGE_CASES = 6
"""Trees of a few thousand nodes (past the judge's blocks of rows)."""

_OTHER = {Kind.MAX: Kind.MIN, Kind.MIN: Kind.MAX}
_STUDENT_ALGORITHMS = ("minimax", "alphabeta", "negamax", "negamax-alphabeta")


def _value(rng: random.Random, kinds: str) -> Number:
    if kinds == "int" or rng.random() < 0.6:
        return rng.randint(-6, 6)
    if rng.random() < 0.5:
        return Fraction(rng.randint(-20, 20), rng.randint(1, 6))
    return rng.randint(-400, 400) / 8


def random_tree(rng: random.Random, size: int, *, chance: bool, heuristics: bool) -> Tree:
    """A tree of about ``size`` nodes (built breadth first, branching 1 to 4)."""
    kinds = "any" if chance else "int"
    alternate = not chance and rng.random() < 0.7
    nodes: list[Node] = []
    frontier: list[tuple[str, Kind, int]] = [("A", rng.choice((Kind.MAX, Kind.MIN)), 0)]
    count = 1
    while frontier:
        name, kind, depth = frontier.pop(0)
        if count >= size or (depth > 0 and rng.random() < 0.2):
            nodes.append(Node(name, Kind.LEAF, utility=_value(rng, kinds)))
            continue
        width = rng.randint(1, 4)
        names = [f"{name}.{i}" if depth else f"{chr(66 + i)}" for i in range(width)]
        probabilities: list[Fraction | None] = [None] * width
        if kind is Kind.CHANCE:
            weights = [rng.randint(1, 4) for _ in range(width)]
            probabilities = [Fraction(weight, sum(weights)) for weight in weights]
        edges = tuple(
            Edge(f"{name.lower()}{i}", child, p)
            for i, (child, p) in enumerate(zip(names, probabilities, strict=True))
        )
        heuristic = rng.randint(-6, 6) if heuristics else None
        nodes.append(Node(name, kind, edges, heuristic=heuristic))
        count += width
        for child in names:
            if alternate:
                child_kind = _OTHER[kind]
            elif chance:
                child_kind = rng.choice((Kind.MAX, Kind.MIN, Kind.CHANCE))
            else:
                child_kind = rng.choice((Kind.MAX, Kind.MIN))
            frontier.append((child, child_kind, depth + 1))
    return Tree("A", nodes)


def _some_node(rng: random.Random, tree: Tree) -> str:
    return rng.choice(list(tree.nodes))


def _tamper(rng: random.Random, tree: Tree, events: list[ObservedEvent]) -> None:
    """Change ``events`` in place as a broken or hostile search might have made them."""
    for _ in range(rng.randint(1, 3)):
        if not events:
            return
        at = rng.randrange(len(events))
        change = rng.randrange(8)
        if change == 0:
            del events[rng.randrange(at, len(events)) :]  # the search ended early
        elif change == 1:
            events.insert(at, events[rng.randrange(len(events))])  # repeated
        elif change == 2:
            del events[at]
        elif change == 3 and at + 1 < len(events):
            events[at], events[at + 1] = events[at + 1], events[at]
        elif change == 4:
            method = rng.choice(("terminal_test", "actions", "utility", "eval", "to_move"))
            events.insert(at, Visit(_some_node(rng, tree), method))
        elif change == 5:
            events.insert(at, Visit("not-a-node", "actions"))
        elif change == 6:
            event = events[at]
            if type(event) is Return:
                events[at] = replace(event, value=rng.choice((None, 99, -3, Fraction(1, 3))))
        else:
            event = events[at]
            if type(event) is Call:
                events[at] = replace(event, alpha=rng.randint(-6, 6), depth=rng.randint(0, 3))


def case(seed: int) -> tuple[Tree, SearchResult, Observed]:
    """The tree, the reference search and the student's observed search of case ``seed``."""
    rng = random.Random(seed)
    large = seed >= CASES
    size = rng.randint(2000, 6000) if large else rng.randint(1, 60)
    flavour = rng.randrange(6)
    chance = flavour == 0
    depth_limited = flavour == 1
    tree = random_tree(rng, size, chance=chance, heuristics=depth_limited)
    options = SearchOptions(
        prune_on_equality=rng.random() < 0.7,
        order="right-to-left" if rng.random() < 0.2 else "left-to-right",
        depth_limit=rng.randint(0, 4) if depth_limited else None,
        order_judged=rng.random() < 0.85,
        generation="generated" if rng.random() < 0.1 else "visit",
    )
    if chance:
        algorithm = "expectiminimax"
    elif depth_limited:
        algorithm = rng.choice(("depth-limited-minimax", "depth-limited-alphabeta"))
    else:
        algorithm = rng.choice(_STUDENT_ALGORITHMS)
    reference = search(tree, algorithm, options)
    if rng.random() < 0.1:
        observed = observed_from_trace(reference)
    else:
        names = list(tree.nodes)
        student_algorithm = rng.choice(_STUDENT_ALGORITHMS)
        if chance:
            student_algorithm = "expectiminimax"
        elif depth_limited:
            student_algorithm = "depth-limited-minimax"
        inner = [node for node in tree if node.edges]
        permute: tuple[tuple[str, tuple[int, ...]], ...] = ()
        if inner and rng.random() < 0.2:
            node = rng.choice(inner)
            positions = list(range(len(node.edges)))
            rng.shuffle(positions)
            permute = ((node.name, tuple(positions)),)
        student = Student(
            student_algorithm,  # type: ignore[arg-type]
            fail_hard=rng.random() < 0.3,
            prune=rng.choice(("eq", "eq", "strict", "never")),
            right_to_left=rng.random() < 0.15,
            search_twice=rng.choice(names) if rng.random() < 0.15 else None,
            initial=rng.randint(-3, 3) if rng.random() < 0.1 else None,
            update_beta=rng.random() < 0.9,
            skip=rng.choice(names[1:]) if len(names) > 1 and rng.random() < 0.15 else None,
            decision_style=rng.random() < 0.15,
            depth_limit=options.depth_limit,
            depth_up=rng.random() < 0.3 and bool(options.depth_limit),
            max_lowers_beta=rng.random() < 0.1,
            permute=permute,
        )
        observed = simulate(tree, student)
    if rng.random() < 0.35:
        _tamper(rng, tree, observed.events)
    return tree, reference, observed


def fingerprint(feedback: TreeFeedback) -> str:
    """What ``feedback`` says, node by node and of the tree, without its sentences."""
    divergence = feedback.first_divergence
    said = [
        [
            node.node,
            node.verdict.value,
            repr(node.true_value),
            repr(node.allowed),
            repr(node.returned),
            repr(node.window),
            repr(node.received),
        ]
        for node in feedback.nodes
    ]
    said.append(
        [
            repr(feedback.value_expected),
            repr(feedback.value_actual),
            repr(feedback.value_ok),
            repr(feedback.decision_expected),
            repr(feedback.decision_actual),
            repr(feedback.decision_ok),
            repr(feedback.score),
            repr(feedback.evaluations_ok),
            repr(None if divergence is None else (divergence.node, divergence.event)),
            repr(None if divergence is None else divergence.differs),
        ]
    )
    return hashlib.sha256(json.dumps(said).encode()).hexdigest()[:16]


def fingerprints() -> dict[str, str]:
    """Every case's fingerprint, by its seed."""
    found = {}
    for seed in range(CASES + LARGE_CASES):
        tree, reference, observed = case(seed)
        found[str(seed)] = fingerprint(judge(tree, reference, observed))
    return found


if __name__ == "__main__":
    json.dump(fingerprints(), sys.stdout, indent=0, sort_keys=True)
    sys.stdout.write("\n")
