"""Choosing a grading's hidden trees so that every known wrong implementation is caught.

Hidden trees are drawn afresh for every grading (every *draw*): what a student's code
learns of one draw's trees, by the few coarse facts a grading tells about them, says
nothing about the next draw's. Two parts make a draw:

* **Catchers**, from the exercise's *pool*: candidates drawn once per exercise and key
  (:func:`reference.hidden.generate.candidate_tree`), each judged against the library's
  wrong implementations until each one is caught by ``POOL_COVER`` of them (or the budget
  is spent). Judging is what costs (it runs the library), so it is done once per exercise;
  a draw picks, in its own random order, catchers until every wrong implementation the
  pool catches is caught by one of them. With several catchers per implementation, two
  draws seldom share them.
* **Fresh trees**, for the rest of the policy's count, drawn from the draw's own seed
  (:func:`reference.hidden.generate.draw_seed`), preferring ones that add a shape still
  missing (the other height parity, a tie, a negative value). They are new in every draw.

The draw's trees come in a random order, named ``hidden-1`` ... The draw depends on the
key, the exercise, the draw's name and the set of wrong implementations: adding one to the
library may change the trees.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from reference.budgets import POOL_NODES, POOL_WORK
from reference.exercises.model import Exercise, HiddenTreePolicy
from reference.hidden.generate import candidate_tree, draw_seed, seeded_tree
from reference.hidden.trusted import Judge, ReferenceJudge
from reference.tree import Tree

DEFAULT_BUDGET = 300
"""How many candidates the pool looks at while some wrong implementation is uncaught."""
POOL_COVER = 6
"""How many pool trees should catch each wrong implementation."""
COVER_BUDGET = 60
"""Candidates the pool looks at for more catchers once every implementation is caught."""


@dataclass(frozen=True, slots=True)
class HiddenTree:
    """A hidden tree of one draw: its name, the tree, and the pool catcher it is (None for
    a fresh tree)."""

    name: str
    tree: Tree
    catcher: int | None = None


@dataclass(frozen=True, slots=True)
class Catcher:
    """A pool tree: the candidate it was and the wrong implementations it is known to catch
    (judging stops for an implementation caught ``POOL_COVER`` times, so the set may leave
    out some it would catch)."""

    index: int
    tree: Tree
    catches: frozenset[str]


@dataclass(frozen=True, slots=True)
class Pool:
    """An exercise's catchers under one key, and the wrong implementations none catches."""

    catchers: tuple[Catcher, ...]
    uncaught: tuple[str, ...] = ()
    tried: int = 0
    """How many candidates were judged."""
    work: int = 0
    """The work of judging (see :func:`build_pool`)."""
    cut_short: str | None = None
    """Why the walk stopped before it could end by itself (a budget spent), if it did."""

    def caught(self) -> frozenset[str]:
        """The wrong implementations some catcher catches."""
        found: set[str] = set()
        for catcher in self.catchers:
            found |= catcher.catches
        return frozenset(found)


@dataclass(frozen=True, slots=True)
class Selection:
    """The hidden trees of one draw, and the wrong implementations none of them catches."""

    trees: tuple[HiddenTree, ...]
    uncaught: tuple[str, ...] = ()
    tried: int = 0
    """How many candidates the pool judged."""


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


def build_pool(
    exercise: Exercise,
    key: bytes,
    wrong: Mapping[str, str],
    fails: Judge,
    *,
    budget: int = DEFAULT_BUDGET,
    cover: int = POOL_COVER,
    work: int = POOL_WORK,
    kept: int = POOL_NODES,
) -> Pool:
    """The catchers of ``exercise`` under ``key``: candidates that catch some wrong
    implementation still caught fewer than ``cover`` times.

    ``wrong`` maps names to sources; ``fails(source, tree)`` judges one of them on a tree.
    The walk ends once every implementation is caught ``cover`` times, once every one is
    caught and ``COVER_BUDGET`` candidates were judged, or after ``budget`` candidates; the
    names never caught are returned in ``uncaught``. It is cut short, saying so in
    ``cut_short``, once ``work`` is spent, or before a candidate whose keeping would pass
    ``kept`` catcher nodes. The work is counted in game calls where ``fails`` counts them
    (a :class:`~reference.hidden.trusted.ReferenceJudge`), else in each candidate's nodes
    times the implementations judged on it: either way the same on every worker, so every
    worker builds the same pool.
    """
    sources = dict(sorted(wrong.items()))
    wanted = dict.fromkeys(sources, cover)
    catchers: list[Catcher] = []
    index = spent = held = 0
    cut_short = None
    while index < budget:
        open_ = [name for name, left in wanted.items() if left > 0]
        if not open_:
            break
        if index >= COVER_BUDGET and all(wanted[name] < cover for name in sources):
            break
        tree = candidate_tree(exercise, key, index)
        if held + len(tree) > kept:
            cut_short = f"the pool's budget of {kept:,} catcher nodes was spent"
            break
        found: set[str] = set()
        for name in open_:
            if spent >= work:
                cut_short = f"the pool's budget of {work:,} game calls judged was spent"
                break
            before = fails.calls if isinstance(fails, ReferenceJudge) else 0
            if fails(sources[name], tree):
                found.add(name)
            spent += fails.calls - before if isinstance(fails, ReferenceJudge) else len(tree)
        if cut_short is not None:
            break
        caught = frozenset(found)
        if caught:
            catchers.append(Catcher(index, tree, caught))
            held += len(tree)
            for name in caught:
                wanted[name] -= 1
        index += 1
    uncaught = tuple(name for name, left in wanted.items() if left == cover)
    return Pool(tuple(catchers), uncaught, index, spent, cut_short)


def draw_hidden_trees(
    exercise: Exercise, key: bytes, pool: Pool, draw: str
) -> tuple[HiddenTree, ...]:
    """The hidden trees of draw ``draw``: catchers from ``pool`` that between them catch
    everything the pool catches, then fresh trees up to the policy's count, in a random
    order (all of it a function of the key, the exercise, the pool and ``draw``)."""
    count = exercise.hidden.count
    seed = draw_seed(key, exercise, draw)
    rng = random.Random(seed)
    order = list(pool.catchers)
    rng.shuffle(order)
    pending = set(pool.caught())
    chosen: list[HiddenTree] = []
    for catcher in order:
        if not pending or len(chosen) >= count:
            break
        if catcher.catches & pending:
            chosen.append(HiddenTree("", catcher.tree, catcher.index))
            pending -= catcher.catches
    have: set[str] = set()
    for hidden in chosen:
        have |= shape_features(hidden.tree)
    fresh = _fillers(
        lambda index: seeded_tree(exercise, seed, index),
        set(wanted_features(exercise.hidden)) - have,
        count - len(chosen),
    )
    chosen += [HiddenTree("", tree) for tree in fresh]
    rng.shuffle(chosen)
    return tuple(
        HiddenTree(f"hidden-{number}", hidden.tree, hidden.catcher)
        for number, hidden in enumerate(chosen, start=1)
    )


def select_hidden_trees(
    exercise: Exercise,
    key: bytes,
    wrong: Mapping[str, str],
    fails: Judge,
    *,
    budget: int = DEFAULT_BUDGET,
    draw: str = "",
    pool: Pool | None = None,
) -> Selection:
    """The hidden trees of draw ``draw`` of ``exercise`` (see :func:`build_pool` and
    :func:`draw_hidden_trees`); a grading service keeps the pool and draws from it (give
    it as ``pool``: it must be the one ``build_pool`` makes of the same arguments)."""
    if pool is None:
        pool = build_pool(exercise, key, wrong, fails, budget=budget)
    trees = draw_hidden_trees(exercise, key, pool, draw)
    uncaught = set(wrong) - set().union(*(c.catches for c in pool.catchers if _drawn(c, trees)))
    return Selection(trees, tuple(sorted(uncaught)), pool.tried)


def _drawn(catcher: Catcher, trees: Sequence[HiddenTree]) -> bool:
    return any(hidden.catcher == catcher.index for hidden in trees)


def _fillers(make: Callable[[int], Tree], missing: set[str], needed: int) -> list[Tree]:
    """``needed`` trees of the stream ``make``, taking first those that add a missing shape
    feature (looking a bounded way ahead), then the others in order."""
    chosen: list[Tree] = []
    passed: list[Tree] = []
    index = 0
    limit = needed + 2 * len(missing) + 4
    while len(chosen) < needed and index < limit:
        tree = make(index)
        index += 1
        features = shape_features(tree)
        if not missing or features & missing:
            chosen.append(tree)
            missing -= features
        else:
            passed.append(tree)
    while len(chosen) < needed:
        if passed:
            chosen.append(passed.pop(0))
        else:
            chosen.append(make(index))
            index += 1
    return chosen


def hidden_trees(
    exercise: Exercise,
    key: bytes,
    wrong: Mapping[str, str] | None = None,
    fails: Judge | None = None,
    *,
    draw: str = "",
) -> list[Tree]:
    """The hidden trees of draw ``draw`` of ``exercise`` under ``key``.

    Without ``wrong`` and ``fails`` these are shape-balanced fresh trees only; with them,
    they include catchers of every wrong implementation (see :func:`select_hidden_trees`).
    """
    if wrong and fails is not None:
        selection = select_hidden_trees(exercise, key, wrong, fails, draw=draw)
        return [hidden.tree for hidden in selection.trees]
    return [hidden.tree for hidden in draw_hidden_trees(exercise, key, Pool(()), draw)]


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
