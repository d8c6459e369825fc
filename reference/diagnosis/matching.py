"""Diagnosing a failed search: which of the library's wrong searches it behaves like.

Each wrong implementation of the exercise's algorithm is run in process on every tree the
student's search was graded on (they are the course's own code: see
:mod:`reference.hidden.trusted`), and its signature compared with the student's. The
signatures of a tree depend only on the tree, the exercise and the library, so they are
kept (:data:`SIGNATURE_TREES_KEPT` trees) and a grading's trees cost their runs once.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from reference.caching import IdentityCache
from reference.diagnosis.compare import Agreement, agreement
from reference.diagnosis.findings import Diagnosis, Misconception, TreeEvidence
from reference.diagnosis.signature import (
    Signature,
    reference_signature,
    trusted_signature,
)
from reference.exercises.model import Exercise
from reference.hidden.library import Implementation
from reference.hidden.library import Misconception as Told
from reference.hidden.trusted import best_actions, run_trusted
from reference.tree import Tree

SIGNATURE_TREES_KEPT = 256
"""Trees (of an exercise) whose signatures are kept: a grading's public and hidden trees
for the exercises graded lately. A hidden tree has tens of nodes, so a tree's signatures
(one per wrong implementation, tens of them) hold some thousands of steps."""
SHOWN = 3
"""Misconceptions a diagnosis names (equivalent ones count as one)."""


@dataclass(slots=True)
class TreeSignatures:
    """The reference's and the library implementations' signatures of one tree."""

    reference: Signature
    library: dict[str, tuple[str, Signature]] = field(default_factory=dict)
    """By implementation name: the source run and its signature."""


_kept: IdentityCache[TreeSignatures] = IdentityCache(SIGNATURE_TREES_KEPT)


def clear_signatures() -> None:
    """Forget every kept signature (the bench measures a cold diagnosis with it)."""
    _kept.clear()


def tree_signatures(
    exercise: Exercise, tree: Tree, implementations: Sequence[Implementation]
) -> TreeSignatures:
    """The signatures of ``tree`` for ``exercise``: the reference's and each of
    ``implementations``' (kept, and run again only for an implementation whose source
    changed)."""
    kept = _kept.get(lambda: _reference(exercise, tree), tree, exercise)
    for implementation in implementations:
        found = kept.library.get(implementation.name)
        if found is None or found[0] != implementation.source:
            run = run_trusted(implementation.source, exercise, tree)
            kept.library[implementation.name] = (implementation.source, trusted_signature(run))
    return kept


def _reference(exercise: Exercise, tree: Tree) -> TreeSignatures:
    result = exercise.reference(tree)
    best = best_actions(exercise, tree)
    return TreeSignatures(reference_signature(result, best, exercise.options.depth_limit))


def diagnose(
    student: Mapping[str, Signature],
    trees: Mapping[str, Tree],
    exercise: Exercise,
    library: Sequence[Implementation],
    *,
    hidden: Collection[str] = (),
) -> Diagnosis | None:
    """The misconceptions of ``library`` nearest the student's search, or None when the
    search agrees with the reference on every tree (or no tree can be compared).

    ``student``: the signature of the student's search of each tree it completed, by tree
    name; ``trees``: the trees by the same names. Only trees in both count. The wrong
    implementations are those :meth:`Implementation.is_wrong_for` the exercise (with the
    correct ones under the other pruning rule). They are ranked by the trees on which they
    search exactly as the student's did, then by how far they agree on the others;
    those whose signatures are the same on every tree are named together. Trees named in
    ``hidden`` are counted but their evidence names no node.
    """
    names = [name for name in trees if name in student]
    if not names:
        return None
    on_equality = exercise.options.prune_on_equality
    wrong = [implementation for implementation in library if implementation.is_wrong_for(exercise)]
    # The reference first: a correct search costs no run of the library.
    kept = {name: tree_signatures(exercise, trees[name], ()) for name in names}
    if all(agreement(student[name], kept[name].reference, on_equality).matches for name in names):
        return None
    kept = {name: tree_signatures(exercise, trees[name], wrong) for name in names}
    found: list[tuple[Implementation, list[Agreement]]] = []
    for implementation in wrong:
        agreements = [
            agreement(student[name], kept[name].library[implementation.name][1], on_equality)
            for name in names
        ]
        found.append((implementation, agreements))
    found.sort(key=lambda item: (-_matched(item[1]), -_closeness(item[1]), item[0].name))
    groups: list[list[tuple[Implementation, list[Agreement]]]] = []
    for item in found:
        group = next((group for group in groups if _equivalent(group[0], item, kept)), None)
        if group is not None:
            group.append(item)
        elif len(groups) < SHOWN:
            groups.append([item])
    hidden_names = frozenset(hidden)
    return Diagnosis(
        trees=len(names),
        misconceptions=tuple(_misconception(group, names, hidden_names) for group in groups),
    )


def _matched(agreements: list[Agreement]) -> int:
    return sum(found.matches for found in agreements)


def _closeness(agreements: list[Agreement]) -> float:
    return sum(found.share for found in agreements) / len(agreements)


def _equivalent(
    first: tuple[Implementation, list[Agreement]],
    other: tuple[Implementation, list[Agreement]],
    kept: dict[str, TreeSignatures],
) -> bool:
    """True when two implementations search every tree alike (and so fare alike)."""
    if [found.matches for found in first[1]] != [found.matches for found in other[1]]:
        return False
    one, two = first[0].name, other[0].name
    return all(
        agreement(signatures.library[one][1], signatures.library[two][1], True).matches
        and agreement(signatures.library[two][1], signatures.library[one][1], True).matches
        for signatures in kept.values()
    )


def _misconception(
    group: list[tuple[Implementation, list[Agreement]]],
    names: list[str],
    hidden: frozenset[str],
) -> Misconception:
    first = group[0][1]
    evidence = tuple(
        TreeEvidence(
            tree=name,
            matches=found.matches,
            agreeing=found.agreeing,
            steps=found.steps,
            first_difference=None if name in hidden else found.first_difference,
            hidden=name in hidden,
        )
        for name, found in zip(names, first, strict=True)
    )
    return Misconception(
        implementations=tuple(implementation.name for implementation, _ in group),
        bugs=tuple(implementation.bug or "" for implementation, _ in group),
        told=tuple(_told(implementation) for implementation, _ in group),
        matched=_matched(first),
        trees=len(names),
        closeness=_closeness(first),
        evidence=evidence,
    )


def _told(implementation: Implementation) -> Told:
    """What students are told of ``implementation``'s mistake: its misconception, or, for
    a search correct under the other pruning rule only (it has none), that rule."""
    if implementation.misconception is not None:
        return implementation.misconception
    return Told(
        name="pruning by the other rule (on v = beta or not)",
        explanation=implementation.bug or implementation.name,
        pseudocode="Figure 5.7, MAX-VALUE: if v ≥ β then return v",
        hint="Read the exercise's statement: should a node prune when v equals beta (or alpha)?",
    )
