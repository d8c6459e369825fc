"""Choosing an exercise's hidden trees so that every known wrong implementation is caught.

The candidates come from :func:`reference.hidden.generate.candidates` in a fixed order.
Selection walks them and keeps a candidate when it catches a wrong implementation that no
kept tree catches yet; once every wrong implementation is caught (or the search budget is
spent) it fills up to the policy's count with further candidates, preferring ones that add
a shape still missing (a tree of the other height parity, a tie, a negative value). The
result depends on the key, the exercise and the set of wrong implementations: adding one
to the library may change the hidden trees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reference.exercises.model import Exercise, HiddenTreePolicy
from reference.hidden.generate import candidate_tree
from reference.hidden.trusted import Judge
from reference.tree import Tree

DEFAULT_BUDGET = 300
"""How many candidates selection looks at while some wrong implementation is uncaught."""


@dataclass(frozen=True, slots=True)
class HiddenTree:
    """A selected hidden tree: its name, the candidate it was, and the tree."""

    name: str
    index: int
    tree: Tree


@dataclass(frozen=True, slots=True)
class Selection:
    """The hidden trees of an exercise, and the wrong implementations none of them catches."""

    trees: tuple[HiddenTree, ...]
    uncaught: tuple[str, ...] = ()
    tried: int = 0
    """How many candidates were judged."""


def shape_features(tree: Tree) -> frozenset[str]:
    """The shape facts hidden trees should cover between them."""
    features = {"even-height" if tree.height() % 2 == 0 else "odd-height"}
    values = [node.utility for node in tree.leaves() if node.utility is not None]
    if any(value < 0 for value in values):
        features.add("negative")
    for node in tree:
        children = tree.children(node.name)
        leaf_values = [child.utility for child in children if child.is_leaf]
        if len(leaf_values) != len(set(leaf_values)):
            features.add("tie")
        if len(children) == 1:
            features.add("single-child")
    return frozenset(features)


def wanted_features(policy: HiddenTreePolicy) -> frozenset[str]:
    """The features a policy's hidden trees can and should have between them."""
    wanted = {"tie"}
    heights = range(policy.min_depth, policy.max_depth + 1)
    wanted |= {"even-height" if height % 2 == 0 else "odd-height" for height in heights}
    if policy.min_value < 0:
        wanted.add("negative")
    return frozenset(wanted)


def select_hidden_trees(
    exercise: Exercise,
    key: bytes,
    wrong: Mapping[str, str],
    fails: Judge,
    *,
    budget: int = DEFAULT_BUDGET,
) -> Selection:
    """The hidden trees of ``exercise``: each catches some wrong implementation the ones
    before it do not, then filler trees up to ``exercise.hidden.count``.

    ``wrong`` maps names to sources; ``fails(source, tree)`` judges one of them on a tree.
    Names of wrong implementations still uncaught after ``budget`` candidates (or when the
    count is too small to catch them all) are returned in ``uncaught``.
    """
    count = exercise.hidden.count
    pending = dict(sorted(wrong.items()))
    kept: list[int] = []
    index = 0
    while pending and index < budget and len(kept) < count:
        tree = candidate_tree(exercise, key, index)
        caught = [name for name, source in pending.items() if fails(source, tree)]
        if caught:
            kept.append(index)
            for name in caught:
                del pending[name]
        index += 1
    tried = index
    kept += _fillers(exercise, key, kept, count - len(kept))
    kept.sort()
    trees = tuple(
        HiddenTree(f"hidden-{number}", index, candidate_tree(exercise, key, index))
        for number, index in enumerate(kept, start=1)
    )
    return Selection(trees, tuple(pending), tried)


def _fillers(exercise: Exercise, key: bytes, kept: list[int], needed: int) -> list[int]:
    """``needed`` more candidates, taking first those that add a missing shape feature."""
    if needed <= 0:
        return []
    have: set[str] = set()
    for index in kept:
        have |= shape_features(candidate_tree(exercise, key, index))
    missing = set(wanted_features(exercise.hidden)) - have
    chosen: list[int] = []
    passed: list[int] = []
    index = 0
    # Look a bounded way ahead for missing features, then take candidates in order.
    while len(chosen) < needed and index < needed + 4 * len(missing) + 20:
        if index not in kept:
            features = shape_features(candidate_tree(exercise, key, index))
            if not missing or features & missing:
                chosen.append(index)
                missing -= features
            else:
                passed.append(index)
        index += 1
    while len(chosen) < needed:
        if passed:
            chosen.append(passed.pop(0))
        else:
            if index not in kept:
                chosen.append(index)
            index += 1
    return chosen


def hidden_trees(
    exercise: Exercise,
    key: bytes,
    wrong: Mapping[str, str] | None = None,
    fails: Judge | None = None,
) -> list[Tree]:
    """The hidden trees of ``exercise`` under ``key``.

    Without ``wrong`` and ``fails`` these are shape-balanced candidates only; with them, the
    trees are chosen to catch every wrong implementation (see :func:`select_hidden_trees`).
    """
    if wrong and fails is not None:
        selection = select_hidden_trees(exercise, key, wrong, fails)
        return [hidden.tree for hidden in selection.trees]
    return [
        candidate_tree(exercise, key, index)
        for index in sorted(_fillers(exercise, key, [], exercise.hidden.count))
    ]


@dataclass(frozen=True, slots=True)
class CatchTable:
    """Which hidden tree catches which wrong implementation."""

    trees: tuple[str, ...]
    rows: tuple[tuple[str, tuple[bool, ...]], ...]

    def uncaught(self) -> list[str]:
        """The wrong implementations no tree catches."""
        return [name for name, caught in self.rows if not any(caught)]

    def lines(self) -> list[str]:
        """The table as text: one row per implementation, ``x`` where a tree catches it."""
        width = max([len(name) for name, _ in self.rows] + [len("implementation")])
        header = "implementation".ljust(width) + "  " + "  ".join(self.trees)
        out = [header]
        for name, caught in self.rows:
            cells = [
                ("x" if hit else ".").center(len(tree))
                for tree, hit in zip(self.trees, caught, strict=True)
            ]
            suffix = "" if any(caught) else "  UNCAUGHT"
            out.append(name.ljust(width) + "  " + "  ".join(cells) + suffix)
        return out


def catch_table(trees: Sequence[HiddenTree], wrong: Mapping[str, str], fails: Judge) -> CatchTable:
    """Judge every wrong implementation on every hidden tree (for ``check-hidden``)."""
    rows = tuple(
        (name, tuple(fails(source, hidden.tree) for hidden in trees))
        for name, source in sorted(wrong.items())
    )
    return CatchTable(tuple(hidden.name for hidden in trees), rows)
