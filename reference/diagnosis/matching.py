"""Diagnosing a failed search: which known wrong searches it behaves like.

The suspects are the library's wrong implementations of the exercise's algorithm (run in
process: they are the course's own code, see :mod:`reference.hidden.trusted`) and any an
instructor added (:class:`~reference.diagnosis.suspects.AddedSuspect`, whose signatures
come from the sandbox). Each suspect's signature on each tree the student's search was
graded on is compared with the student's. Those that search every tree as the student's
did are named; failing that, the nearest, by how alike the two are *where either departs
from the reference* (:func:`reference.diagnosis.compare.departure_share`): trees where both
search as the reference does say nothing of how alike two mistakes are, and a mistake that
shows on few trees would otherwise look near every search. The nearest is named only when
it is near enough (:data:`NEAR_ENOUGH`); otherwise no known mistake fits.

Running a suspect on a tree is what costs, so it is done lazily, best first: a suspect is
run on its next tree only while it could still be shown (:func:`_best_first`). Exact
matches are looked for first (a suspect is dropped at its first tree that differs), then
two mistakes made together (:mod:`reference.diagnosis.composition`), and only then the
nearest, among the :data:`NEAREST_AMONG` nearest on the trees met before. Trees met before
come first, then the smaller ones. The signatures of a tree depend only on the tree, the
exercise and the library, so they are kept (:data:`SIGNATURE_TREES_KEPT` trees): the
public trees and the hidden pool's catchers, met by every grading, cost their runs once.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from reference.caching import IdentityCache
from reference.diagnosis.compare import Agreement, agreement, departure_share
from reference.diagnosis.composition import composed
from reference.diagnosis.findings import Composed, Diagnosis, Misconception, TreeEvidence
from reference.diagnosis.signature import (
    Signature,
    View,
    reference_signature,
    trusted_signature,
)
from reference.diagnosis.stored import tree_key
from reference.diagnosis.suspects import AddedSuspect, NotCompared
from reference.exercises.model import Exercise
from reference.hidden.library import Implementation, MisconceptionText
from reference.hidden.trusted import best_actions, run_trusted
from reference.search import SearchResult
from reference.tree import Tree

SIGNATURE_TREES_KEPT = 256
"""Trees (of an exercise) whose signatures are kept: a grading's public and hidden trees
for the exercises graded lately. A hidden tree has tens of nodes, so a tree's signatures
(one per wrong implementation, tens of them) hold some thousands of steps."""
SHOWN = 1
"""Misconceptions a diagnosis names when none matches exactly: the nearest (with those
equivalent to it). When some match on every tree, only those are named. Naming more than
one costs: each named one must be run on every tree."""
NEAREST_AMONG = 3
"""When no known mistake matches exactly, the nearest is looked for among this many, the
nearest on what is known of them without running them again (their signatures kept on
the trees met before: the public trees and the pool's catchers) and on the trees the
search for an exact match ran them on; the others are not run on more trees. With no
tree met before, among all."""
NEAR_ENOUGH = 0.5
"""The closeness (where either search departs from the reference, see
:func:`reference.diagnosis.compare.departure_share`) a nearest mistake must reach to be
named; below it, the diagnosis says that no known mistake fits. Measured on the labelled
set of wrong searches in ``tests/reference/diagnosis_set``."""
WORK_FLOOR = 20_000
"""Game calls the library's runs of one diagnosis may make whatever the search (about
0.1 s of a worker's time): a cold diagnosis of the shipped exercises' searches makes at
most 8,000 (``bench/diagnosis_cost.py``'s submissions)."""
WORK_PER_STEP = 2
"""Beyond the floor, game calls per step of the student's search (its signatures' steps
over every tree compared): a search of big trees may be diagnosed at a cost in proportion
to its grading's, never more. Only runs count (a kept signature costs nothing), so a
worker that has kept more may finish a diagnosis another one stops: the one stopped says
so and names nothing, which is never wrong."""
_EPSILON = 1e-9
"""Slack on a sum of shares (sums of the same floats in another order may differ)."""


@dataclass(slots=True)
class TreeSignatures:
    """The reference's and the library implementations' signatures of one tree."""

    searched: Signature
    """The reference search's steps, without the decisions a correct search may make."""
    library: dict[str, tuple[str, Signature]] = field(default_factory=dict)
    """By implementation name: the source run and its signature."""
    decisions: frozenset[str] | None = None
    """The root actions a correct decision may name (None: not yet known)."""

    def reference(self, exercise: Exercise, tree: Tree) -> Signature:
        """The reference's signature with the decisions a correct search may make. Finding
        them searches the tree without pruning, so it is done only when asked: only a
        decision-style search is compared on its decision."""
        if self.decisions is None:
            self.decisions = best_actions(exercise, tree)
        return replace(self.searched, decisions=self.decisions)

    def known(self, implementation: Implementation) -> Signature | None:
        """The kept signature of ``implementation`` (None: not kept, or its source changed)."""
        found = self.library.get(implementation.name)
        return None if found is None or found[0] != implementation.source else found[1]


class OutOfWork(Exception):
    """The diagnosis's work (:data:`WORK_FLOOR`, :data:`WORK_PER_STEP`) is spent."""


@dataclass(slots=True)
class Work:
    """The game calls a diagnosis's runs of the library may still make."""

    left: int

    def spend(self, calls: int) -> None:
        self.left -= calls
        if self.left < 0:
            raise OutOfWork


_kept: IdentityCache[TreeSignatures] = IdentityCache(SIGNATURE_TREES_KEPT)


def clear_signatures() -> None:
    """Forget every kept signature (the bench measures a cold diagnosis with it)."""
    _kept.clear()


def tree_signatures(
    exercise: Exercise, tree: Tree, reference: SearchResult | None = None
) -> TreeSignatures:
    """The kept signatures of ``tree`` for ``exercise``, with the reference's (from
    ``reference``, the reference search of the tree, when the caller holds it); the
    library's are added by :func:`library_signature` as they are run."""
    return _kept.get(lambda: _reference(exercise, tree, reference), tree, exercise)


def library_signature(
    kept: TreeSignatures,
    exercise: Exercise,
    tree: Tree,
    implementation: Implementation,
    work: Work | None = None,
) -> Signature:
    """The signature of ``implementation`` on ``tree``, run in process unless kept (a run's
    game calls are spent from ``work``)."""
    found = kept.known(implementation)
    if found is None:
        run = run_trusted(implementation.source, exercise, tree)
        found = trusted_signature(run)
        kept.library[implementation.name] = (implementation.source, found)
        if work is not None:
            work.spend(run.calls)
    return found


def _reference(exercise: Exercise, tree: Tree, result: SearchResult | None) -> TreeSignatures:
    if result is None:
        result = exercise.reference(tree)
    return TreeSignatures(reference_signature(result, frozenset(), exercise.options.depth_limit))


Key = tuple[float, ...]
"""How a suspect ranks (higher first), compared element by element."""


@dataclass(slots=True)
class _Suspect:
    """One suspect while the diagnosis runs: what it agreed on so far."""

    name: str
    bug: str
    told: MisconceptionText
    library: Implementation | None
    added: AddedSuspect | None
    left: list[str]
    """The trees it has not been compared on yet, the smallest first."""
    agreements: dict[str, Agreement] = field(default_factory=dict)
    signatures: dict[str, Signature | None] = field(default_factory=dict)
    matched: int = 0
    shares: float = 0.0
    differing: int = 0
    """Trees compared on which it or the student's search departs from the reference."""
    near: float = 0.0
    """The sum of :func:`departure_share` over those trees."""
    alike: int = 0
    """Those of them it searches exactly as the student's did."""
    excluded: bool = False
    """Left out: it could not be compared on some tree (see :class:`NotCompared`)."""

    def bound(self) -> Key:
        """The best (matched trees, sum of shares) it can still reach."""
        return self.matched + len(self.left), self.shares + len(self.left)

    def key(self) -> Key:
        """(matched trees, sum of shares) so far; its rank once no tree is left."""
        return self.matched, self.shares

    @property
    def closeness(self) -> float:
        """The mean departure share over the trees where either search departs (1.0 while
        there is none: nothing tells them apart yet)."""
        return 1.0 if not self.differing else self.near / self.differing

    def near_key(self) -> Key:
        """(closeness, trees searched alike where either departs) so far."""
        return self.closeness, self.alike

    def near_bound(self, departing: Collection[str]) -> Key:
        """The best :meth:`near_key` it can still reach: each tree left where the student's
        search departs (``departing``) searched alike, the others as the reference."""
        more = sum(1 for name in self.left if name in departing)
        differing = self.differing + more
        closeness = 1.0 if not differing else (self.near + more) / differing
        return closeness, self.alike + more

    def add(
        self, name: str, found: Agreement, signature: Signature | None, share: float | None
    ) -> None:
        self.left.remove(name)
        self.agreements[name] = found
        self.signatures[name] = signature
        self.matched += found.matches
        self.shares += found.share
        if share is not None:
            self.differing += 1
            self.near += share
            self.alike += share == 1.0


def diagnose(
    student: Mapping[str, Signature],
    trees: Mapping[str, Tree],
    exercise: Exercise,
    library: Sequence[Implementation],
    *,
    hidden: Collection[str] = (),
    references: Mapping[str, SearchResult] | None = None,
    added: Sequence[AddedSuspect] = (),
    work: int | None = None,
) -> Diagnosis | None:
    """The known misconceptions nearest the student's search, or None when the search
    agrees with the reference on every tree (or no tree can be compared).

    ``student``: the signature of the student's search of each tree it completed, by tree
    name; ``trees``: the trees by the same names. Only trees in both count.
    ``references``: the reference search of some trees, by name, where the caller holds
    them (the others are searched here). The suspects are the implementations of
    ``library`` that :meth:`Implementation.is_wrong_for` the exercise (with the correct
    ones under the other pruning rule) and ``added``. Those matching on every tree are
    named, and only they; failing that, if two of the library's mistakes made in one
    search (:mod:`reference.diagnosis.composition`) match on every tree, those two; and the
    nearest, by how alike it and the student's search are where either departs from the
    reference, if that reaches :data:`NEAR_ENOUGH` (none otherwise). Suspects whose
    signatures are the same on every tree are named together. Trees named in ``hidden``
    are counted but their evidence names no node. ``work``: the game calls the library's
    runs may make (by default :data:`WORK_FLOOR` or :data:`WORK_PER_STEP` per step of the
    student's search, the more); once they are spent the diagnosis stops, names nothing
    and says so (:attr:`Diagnosis.cut`).
    """
    names = [name for name in trees if name in student]
    if not names:
        return None
    on_equality = exercise.options.prune_on_equality
    given = references or {}
    # The public trees first (every grading meets them), then the others met before (the
    # pool's catchers), then the smallest: a signature run there is kept for the next
    # grading; a fresh tree is met once.
    seen = {name for name in names if (trees[name], exercise) in _kept}
    hidden_trees = frozenset(hidden)
    order = sorted(
        names, key=lambda name: (name in hidden_trees, name not in seen, len(trees[name]))
    )
    # The reference first: a correct search costs no run of the library.
    kept = {name: tree_signatures(exercise, trees[name], given.get(name)) for name in names}
    references_seen = {
        name: _reference_for(student[name], kept[name], exercise, trees[name]) for name in names
    }
    departures = {
        name: agreement(student[name], references_seen[name], on_equality) for name in names
    }
    if all(found.matches for found in departures.values()):
        return None
    departing = frozenset(name for name, found in departures.items() if not found.matches)
    views = {name: student[name].view for name in names}
    if work is None:
        steps = sum(len(student[name].steps) for name in names)
        work = max(WORK_FLOOR, WORK_PER_STEP * steps)
    budget = Work(work)
    suspects = [
        _Suspect(
            implementation.name,
            implementation.bug or "",
            _told(implementation),
            implementation,
            None,
            list(order),
        )
        for implementation in library
        if implementation.is_wrong_for(exercise)
    ]
    suspects += [
        _Suspect(suspect.name, suspect.told.name, suspect.told, None, suspect, list(order))
        for suspect in added
    ]

    def compare(suspect: _Suspect, name: str) -> None:
        try:
            signature = _signature(suspect, exercise, trees[name], kept[name], budget)
        except NotCompared:
            suspect.excluded = True
            suspect.left.clear()
            return
        mine = student[name]
        if signature is None:
            found = Agreement(0, max(1, len(mine.steps)), name)
            share: float | None = 0.0
        else:
            found = agreement(mine, signature, on_equality)
            theirs = agreement(signature, references_seen[name], on_equality, mine.view)
            share = departure_share(departures[name], theirs, found)
        suspect.add(name, found, signature, share)

    try:
        # What is known costs nothing: the kept signatures of the library's suspects, the
        # stored ones of the added suspects (run in the sandbox when they were checked).
        keys = {name: tree_key(trees[name]) for name in names} if added else {}
        for suspect in suspects:
            for name in list(suspect.left):
                if (
                    suspect.library is not None and kept[name].known(suspect.library) is not None
                ) or (suspect.added is not None and keys[name] in suspect.added.stored):
                    compare(suspect, name)
        # First, exact matches only: each suspect is dropped at its first tree that differs.
        every: Key = (len(names), 0.0)
        exact = _best_first(suspects, compare, _Suspect.bound, _Suspect.key, fixed=every)
        if exact:
            return _diagnosis(exact, names, hidden_trees, _Suspect.key, views)
        pair = _composed(
            student,
            trees,
            exercise,
            library,
            kept,
            order,
            hidden_trees,
            len(departing),
            budget,
        )
        if pair is not None:
            # Two mistakes explain every tree: no single one is nearer than that.
            return Diagnosis(trees=len(names), misconceptions=(), composed=pair)

        def near_bound(suspect: _Suspect) -> Key:
            return suspect.near_bound(departing)

        # Then the nearest: among the few nearest on what is known of them so far (the
        # trees met before whose signatures are kept, compared above, and the trees the
        # search for an exact match ran them on) when some tree was met before.
        if seen:
            suspects = [suspect for suspect in suspects if not suspect.excluded]
            suspects.sort(key=lambda suspect: (_descending(near_bound(suspect)), suspect.name))
            suspects = suspects[:NEAREST_AMONG]
        # Only a suspect that can still reach NEAR_ENOUGH is run on another tree.
        nearest = _best_first(
            suspects, compare, near_bound, _Suspect.near_key, floor=(NEAR_ENOUGH, 0)
        )
        return _diagnosis(nearest, names, hidden_trees, _Suspect.near_key, views)
    except OutOfWork:
        return Diagnosis(trees=len(names), misconceptions=(), cut=True)


def _best_first(
    suspects: list[_Suspect],
    compare: Callable[[_Suspect, str], None],
    bound: Callable[[_Suspect], Key],
    key: Callable[[_Suspect], Key],
    fixed: Key | None = None,
    floor: Key | None = None,
) -> list[_Suspect]:
    """The suspects compared on every tree whose ``key`` is the best (or reaches
    ``fixed``), and at least ``floor``: the one whose ``bound`` (the best key it can still
    reach) is highest is compared on its next tree, while that bound can still reach the
    best key of those compared on every tree so far (or ``fixed``) and ``floor``; the
    others are left as they are."""

    def threshold(done: list[_Suspect]) -> Key | None:
        if fixed is not None:
            return fixed
        best = max((key(suspect) for suspect in done), default=None)
        if floor is None or (best is not None and _at_least(best, floor)):
            return best
        return floor

    done = [suspect for suspect in suspects if not suspect.left and not suspect.excluded]
    waiting = [
        (_descending(bound(suspect)), suspect.name, index)
        for index, suspect in enumerate(suspects)
        if suspect.left
    ]
    heapq.heapify(waiting)
    while waiting:
        _, _, index = heapq.heappop(waiting)
        suspect = suspects[index]
        if not _at_least(bound(suspect), threshold(done)):
            continue
        compare(suspect, suspect.left[0])
        if suspect.excluded:
            continue
        if suspect.left:
            heapq.heappush(waiting, (_descending(bound(suspect)), suspect.name, index))
        else:
            done.append(suspect)
    best = threshold(done)
    return [suspect for suspect in done if _at_least(key(suspect), best)]


def _composed(
    student: Mapping[str, Signature],
    trees: Mapping[str, Tree],
    exercise: Exercise,
    library: Sequence[Implementation],
    kept: Mapping[str, TreeSignatures],
    order: list[str],
    hidden: frozenset[str],
    departing: int,
    work: Work,
) -> Composed | None:
    """Two of the library's mistakes that, made in one search, search every tree as the
    student's did (the first such pair by name), or None. Each pair is compared on the
    trees that keep its signature first, then in ``order``, and dropped at the first
    tree where it parts from the student's search: most cost one run, or none once the
    exercise's public and pool trees keep them."""
    on_equality = exercise.options.prune_on_equality
    for pair in composed(tuple(library)):
        first, second = pair.parts
        if not (
            pair.base.is_correct_for(exercise)
            and first.is_wrong_for(exercise)
            and second.is_wrong_for(exercise)
        ):
            continue
        implementation = pair.implementation
        ordered = sorted(order, key=lambda name: kept[name].known(implementation) is None)
        agreements: dict[str, Agreement] = {}
        for name in ordered:
            signature = library_signature(kept[name], exercise, trees[name], implementation, work)
            found = agreement(student[name], signature, on_equality)
            if not found.matches:
                break
            agreements[name] = found
        else:
            names = list(kept)  # the trees in the grading's order
            return Composed(
                _part(first, agreements, names, hidden, departing),
                _part(second, agreements, names, hidden, departing),
                explained=len(names),
            )
    return None


def _part(
    implementation: Implementation,
    agreements: Mapping[str, Agreement],
    names: list[str],
    hidden: frozenset[str],
    departing: int,
) -> Misconception:
    """One of a composed pair's mistakes, with the pair's evidence (the pair searches alike
    every tree where the student's search departs, ``departing`` of them)."""
    return Misconception(
        implementations=(implementation.name,),
        bugs=(implementation.bug or "",),
        told=(_told(implementation),),
        matched=len(names),
        trees=len(names),
        closeness=1.0,
        differing=departing,
        alike=departing,
        evidence=tuple(
            TreeEvidence(
                name,
                True,
                agreements[name].agreeing,
                agreements[name].steps,
                None,
                hidden=name in hidden,
            )
            for name in names
        ),
    )


def _reference_for(
    student: Signature, kept: TreeSignatures, exercise: Exercise, tree: Tree
) -> Signature:
    """The reference's signature as ``student``'s is compared with it (its decisions only
    for a decision-style search, the only one compared on them)."""
    return kept.reference(exercise, tree) if student.decision_style else kept.searched


def _descending(key: Key) -> Key:
    """``key`` negated: the heap's and the sort's order puts the highest first."""
    return tuple(-part for part in key)


def _at_least(key: Key, threshold: Key | None) -> bool:
    """True when ``key`` reaches ``threshold`` (compared element by element, with slack
    for sums of the same floats in another order; None: no threshold yet)."""
    if threshold is None:
        return True
    for mine, theirs in zip(key, threshold, strict=True):
        if mine > theirs + _EPSILON:
            return True
        if mine < theirs - _EPSILON:
            return False
    return True


def _signature(
    suspect: _Suspect, exercise: Exercise, tree: Tree, kept: TreeSignatures, work: Work
) -> Signature | None:
    if suspect.library is not None:
        return library_signature(kept, exercise, tree, suspect.library, work)
    assert suspect.added is not None
    return suspect.added.signature(tree)


def _diagnosis(
    done: list[_Suspect],
    names: list[str],
    hidden: frozenset[str],
    key: Callable[[_Suspect], Key],
    views: Mapping[str, View],
) -> Diagnosis:
    done.sort(key=lambda suspect: (_descending(key(suspect)), suspect.name))
    exact = bool(done) and done[0].matched == len(names)
    groups: list[list[_Suspect]] = []
    for suspect in done:
        if exact and suspect.matched < len(names):
            break
        group = next(
            (group for group in groups if _equivalent(group[0], suspect, names, views)), None
        )
        if group is not None:
            group.append(suspect)
        elif len(groups) < SHOWN:
            groups.append([suspect])
    return Diagnosis(
        trees=len(names),
        misconceptions=tuple(_misconception(group, names, hidden) for group in groups),
    )


def _equivalent(
    first: _Suspect, other: _Suspect, names: list[str], views: Mapping[str, View]
) -> bool:
    """True when two suspects search every tree alike as far as the student's search
    could be seen (``views``, by tree), and so cannot be told apart by it."""
    if [first.agreements[name].matches for name in names] != [
        other.agreements[name].matches for name in names
    ]:
        return False
    for name in names:
        one, two = first.signatures[name], other.signatures[name]
        if one is None or two is None:
            return False
        view = views[name]
        if not (
            agreement(one, two, True, view).matches and agreement(two, one, True, view).matches
        ):
            return False
    return True


def _misconception(
    group: list[_Suspect], names: list[str], hidden: frozenset[str]
) -> Misconception:
    first = group[0]
    evidence = tuple(
        TreeEvidence(
            tree=name,
            matches=found.matches,
            agreeing=found.agreeing,
            steps=found.steps,
            first_difference=None if name in hidden else found.first_difference,
            hidden=name in hidden,
        )
        for name in names
        for found in (first.agreements[name],)
    )
    return Misconception(
        implementations=tuple(suspect.name for suspect in group),
        bugs=tuple(suspect.bug for suspect in group),
        told=tuple(suspect.told for suspect in group),
        matched=first.matched,
        trees=len(names),
        closeness=first.closeness,
        differing=first.differing,
        alike=first.alike,
        evidence=evidence,
    )


def _told(implementation: Implementation) -> MisconceptionText:
    """What students are told of ``implementation``'s mistake: its misconception, or, for
    a search correct under the other pruning rule only (it has none), that rule."""
    if implementation.misconception is not None:
        return implementation.misconception
    return MisconceptionText(
        name="pruning by the other rule (on v = beta or not)",
        explanation=implementation.bug or implementation.name,
        pseudocode="Figure 5.7, MAX-VALUE: if v ≥ β then return v",
        hint="Read the exercise's statement: should a node prune when v equals beta (or alpha)?",
    )
