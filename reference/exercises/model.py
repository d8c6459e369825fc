"""The exercise model: what a student is asked to implement, on which trees, under which rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from reference.algorithms import ALGORITHMS
from reference.contracts import ContractChoice
from reference.search import SearchOptions, SearchResult, search
from reference.tree import Number, Tree

ENTRY_POINTS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {name: algorithm.entry_points for name, algorithm in ALGORITHMS.items()}
)
"""The functions a student's module defines, by algorithm (an exercise may rename them)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Resources one run of a student's code may use, per tree."""

    cpu_seconds: float = 2.0
    wall_seconds: float = 10.0
    memory_mb: int = 256
    submission_wall_seconds: float | None = None
    """Real time one submission may take over all its trees; None: twice ``wall_seconds``.
    A tree is given what is left of it when that is less than its own wall limit; the
    trees after it are not run."""
    idle_seconds: float | None = None
    """Real time one tree's search may spend neither computing, nor waiting for a CPU, nor
    waiting for the grader's answers (sleeping or blocked); None: no limit but the wall
    limit. Set by the grader's lanes (a fraction of a second in the fast one, seconds in the
    slow one), never by an exercise file."""
    cpu_seconds_by_size: tuple[float, float] | None = None
    """(base, per node): a tree's search may spend ``base`` CPU seconds plus ``per node`` for
    each node of the tree, up to ``cpu_seconds``; None: ``cpu_seconds`` whatever the tree.
    Set by the grader's fast lane only, never by an exercise file."""

    def for_tree(self, nodes: int) -> Limits:
        """The limits of one tree of ``nodes`` nodes (its CPU by its size, if so set)."""
        if self.cpu_seconds_by_size is None:
            return self
        base, per_node = self.cpu_seconds_by_size
        return replace(self, cpu_seconds=min(self.cpu_seconds, base + per_node * nodes))

    @property
    def submission_budget(self) -> float:
        """Real seconds one submission may take over all its trees."""
        if self.submission_wall_seconds is not None:
            return self.submission_wall_seconds
        return 2 * self.wall_seconds


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points for the root value, the decision and the node verdicts (default out of 100),
    and how the hidden trees count in an exercise's total."""

    value: int = 30
    decision: int = 10
    nodes: int = 60
    hidden_share: float | Literal["per_tree"] = 0.5
    """The share of the total the hidden trees carry, from 0 to 1 (the public trees carry
    the rest; with no hidden tree, or no public one, the others carry it all), or
    ``per_tree``: every tree weighs the same."""
    hidden_credit: Literal["partial", "whole"] = "partial"
    """What a failed hidden tree earns: ``partial``, the points of what its one reason says
    held (see :mod:`reference.feedback.scoring`); ``whole``, nothing."""

    @property
    def total(self) -> int:
        """The maximum score for one tree."""
        return self.value + self.decision + self.nodes


@dataclass(frozen=True, slots=True)
class HiddenTreePolicy:
    """How many hidden random trees an exercise grades with, and their shape."""

    count: int = 8
    min_depth: int = 2
    max_depth: int = 5
    max_branching: int = 4
    min_value: int = -9
    max_value: int = 9
    seed: str = ""
    """Mixed with the exercise's slug into the hidden trees' seed: change it to draw new
    hidden trees for the same exercise (a new term, say)."""
    leaves_after_moves: bool = False
    """Every leaf is reached by a move of MAX or MIN, never straight from a chance node (a
    roll is always followed by a move, as in dice games): the shape aima-python's
    ``expect_minmax`` is written for."""


@dataclass(frozen=True, slots=True)
class Expectation:
    """Facts the exercise's author states about a tree; tests hold the reference to them."""

    value: Number | None = None
    decision: str | None = None
    pruned: tuple[str, ...] | None = None
    unvisited: tuple[str, ...] | None = None
    nodes: int | None = None
    leaves_evaluated: int | None = None


@dataclass(frozen=True, slots=True)
class ExerciseTree:
    """One public tree of an exercise, with where it came from (a file, a game, inline)."""

    name: str
    tree: Tree
    source: str
    expect: Expectation = field(default_factory=Expectation)


@dataclass(frozen=True, slots=True)
class Exercise:
    """An exercise: the algorithm and conventions, the public trees, limits and scoring."""

    slug: str
    title: str
    statement: str
    algorithm: str
    options: SearchOptions
    entry_points: tuple[str, ...]
    trees: tuple[ExerciseTree, ...]
    limits: Limits = field(default_factory=Limits)
    scoring: Scoring = field(default_factory=Scoring)
    hidden: HiddenTreePolicy = field(default_factory=HiddenTreePolicy)
    folder: Path | None = None
    contract: ContractChoice = field(default_factory=ContractChoice)
    """The course contract the students write to (:mod:`reference.contracts`)."""

    def tree(self, name: str) -> ExerciseTree:
        """The public tree called ``name``."""
        for tree in self.trees:
            if tree.name == name:
                return tree
        raise KeyError(name)

    def reference(self, tree: ExerciseTree | Tree) -> SearchResult:
        """The reference search of one of this exercise's trees under its conventions."""
        target = tree.tree if isinstance(tree, ExerciseTree) else tree
        return search(target, self.algorithm, self.options)
