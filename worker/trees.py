"""The trees a grading runs: an exercise's public trees, and its hidden trees, one *draw*
of them per grading (see :mod:`reference.hidden.selection`), each with its reference
search.

Drawing is a fifth of a small exercise's grading when done on the way (making the fresh
trees, searching them with the reference, working out what the judge needs of them), so
each grading process keeps a few draws of the exercises it grades **ready**: a grading
takes one (:meth:`Prepared.take`), and the process makes the next one after the result is
stored (:meth:`Prepared.stock_up`), off the path of any student's wait, with what the
judge and the diagnosis keep of each tree. A draw is made on the way only when none is
ready (the first grading of an exercise in a process).

Why in the process that grades, not on another lane: a draw is a few hundred small
objects, and reading one back from the database or the broker costs what making it costs
(measured: a pickled Figure 5.2 draw loads in 5.1 ms and is made in 5.0 ms), so a draw
made elsewhere would take nothing off the path.

Every draw is named with a random token under the exercise version's name: its trees are
a function of the course's secret key and that name (so no student can foresee them), a
draw is taken once (so no two gradings share one), and the name is stored with the run so
that a regrade of the same submission against the same version draws the same trees.
"""

from __future__ import annotations

import secrets
import threading
from collections import deque
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from reference.caching import IdentityCache
from reference.diagnosis.matching import tree_signatures
from reference.exercises.model import Exercise
from reference.feedback.tree_facts import KEPT_NODES, tree_facts
from reference.hidden import LIBRARY_FOLDER, load_library, wrong_for
from reference.hidden.library import Implementation
from reference.hidden.pools import reference_pool
from reference.hidden.selection import Pool, draw_hidden_trees
from reference.search import SearchResult
from reference.tree import Tree


@dataclass(frozen=True, slots=True)
class Case:
    """One tree to grade: its name, whether it is hidden, the tree, its reference search."""

    name: str
    hidden: bool
    tree: Tree
    reference: SearchResult | None
    """The reference search of ``tree`` (kept only for trees of up to
    ``REFERENCE_KEPT_NODES`` nodes; larger ones are searched when graded)."""

    def reference_of(self, exercise: Exercise) -> SearchResult:
        return self.reference or exercise.reference(self.tree)


@dataclass(frozen=True, slots=True)
class Draw:
    """One grading's hidden trees, and the name they are drawn from."""

    name: str
    hidden: tuple[Case, ...]


STOCK_SIZE = 2
"""Draws a process keeps ready per exercise (one is taken per grading and one made after
it: two cover a grading that starts while the next is being made)."""


def draw_name(prefix: str) -> str:
    """A new draw's name: ``prefix`` (the exercise version's) and a random token."""
    return f"{prefix}/draw-{secrets.token_hex(12)}"


class Prepared:
    """What grading an exercise needs whatever the submission: its public trees, the pool
    of hidden-tree catchers, each with its kept reference search, and the draws ready. The
    pool is built the first time it is needed: a check of a draft on the public trees
    never needs it."""

    def __init__(
        self,
        exercise: Exercise,
        key: bytes,
        public: tuple[Case, ...],
        library: tuple[Implementation, ...],
    ) -> None:
        self.exercise = exercise
        self.key = key
        self.public = public
        self.library = library
        """The library of implementations (a failed search's diagnosis runs its wrong ones)."""
        self._ready: deque[Draw] = deque()
        self._lock = threading.Lock()

    @cached_property
    def pool(self) -> Pool:
        """The hidden-tree pool: building it runs the library's wrong implementations on
        candidates, which costs far more than grading."""
        return reference_pool(self.exercise, self.key, wrong_for(self.exercise, list(self.library)))

    @cached_property
    def catchers(self) -> dict[int, SearchResult | None]:
        """Each catcher's kept reference search, by its index in the pool."""
        return {
            item.index: _kept_reference(self.exercise, item.tree) for item in self.pool.catchers
        }

    def draw(self, name: str) -> Draw:
        """The hidden trees of draw ``name``, made now, with what judging them needs."""
        hidden = tuple(
            Case(
                item.name,
                True,
                item.tree,
                self.catchers.get(item.catcher)
                if item.catcher is not None
                else _kept_reference(self.exercise, item.tree),
            )
            for item in draw_hidden_trees(self.exercise, self.key, self.pool, name)
        )
        for case in hidden:
            if case.reference is not None:
                # Kept for the judge and, should the search fail, for its diagnosis (which
                # runs the library's wrong implementations on the trees only then).
                tree_facts(case.tree, case.reference)
                tree_signatures(self.exercise, case.tree, case.reference)
        return Draw(name, hidden)

    def take(self, prefix: str) -> Draw:
        """A draw under ``prefix`` never taken before: a ready one, else one made now."""
        with self._lock:
            for index, ready in enumerate(self._ready):
                if ready.name.startswith(prefix + "/"):
                    del self._ready[index]
                    return ready
        return self.draw(draw_name(prefix))

    def stock_up(self, prefix: str, size: int = STOCK_SIZE) -> int:
        """Make draws under ``prefix`` until ``size`` are ready; how many were made."""
        made = 0
        while True:
            with self._lock:
                # Draws of another prefix (an older version's) are never taken: dropped.
                kept = [ready for ready in self._ready if ready.name.startswith(prefix + "/")]
                self._ready = deque(kept)
                if len(self._ready) >= size:
                    return made
            fresh = self.draw(draw_name(prefix))
            with self._lock:
                self._ready.append(fresh)
            made += 1

    @property
    def ready(self) -> int:
        """How many draws are ready."""
        return len(self._ready)


CASES_CACHE_SIZE = 64
REFERENCE_KEPT_NODES = KEPT_NODES
"""The judge keeps what it works out about trees up to the same size."""
_prepared: IdentityCache[dict[tuple[bytes, str], Prepared]] = IdentityCache(CASES_CACHE_SIZE)
"""Each exercise's prepared trees, by hidden-tree key and exercises folder (one of each in
a deployment, so each exercise holds one or two)."""


def prepared(exercise: Exercise, key: bytes, exercises_dir: Path) -> Prepared:
    """The public trees, the hidden-tree pool and the ready draws of ``exercise`` under
    ``key``.

    Building the pool runs the library's wrong implementations on candidates: it costs
    far more than grading, and its result depends only on the arguments, so it is kept for
    the most recently used exercises (an exercise object is never changed once loaded)."""
    kept = _prepared.get(dict, exercise)
    slot = (key, str(exercises_dir))
    hit = kept.get(slot)
    if hit is not None:
        return hit
    public = tuple(
        Case(entry.name, False, entry.tree, _kept_reference(exercise, entry.tree))
        for entry in exercise.trees
    )
    library = tuple(load_library(exercises_dir / LIBRARY_FOLDER))
    return kept.setdefault(slot, Prepared(exercise, key, public, library))


def cases(
    exercise: Exercise,
    key: bytes,
    exercises_dir: Path,
    draw: str | Draw = "",
    *,
    public_only: bool = False,
) -> list[Case]:
    """The exercise's public trees, then the hidden trees of ``draw`` (a draw taken, or
    the name of one to make now) under ``key``, each with its reference search where kept;
    with ``public_only``, the public trees alone (no hidden tree is drawn)."""
    ready = prepared(exercise, key, exercises_dir)
    if public_only:
        return list(ready.public)
    hidden = draw if isinstance(draw, Draw) else ready.draw(draw)
    return [*ready.public, *hidden.hidden]


def _kept_reference(exercise: Exercise, tree: Tree) -> SearchResult | None:
    return exercise.reference(tree) if len(tree) <= REFERENCE_KEPT_NODES else None
