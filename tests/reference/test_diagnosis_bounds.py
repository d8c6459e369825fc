"""The diagnosis's shortcuts change nothing: comparing suspects lazily, best first, names
what comparing every suspect on every tree names; and two mistakes in one search are
named together."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, given, settings

from reference.diagnosis import (
    Signature,
    agreement,
    clear_signatures,
    departure_share,
    diagnose,
    matching,
    trusted_signature,
)
from reference.exercises.model import Exercise
from reference.hidden.trusted import run_trusted
from reference.tree import Tree
from tests.reference.test_diagnosis import (
    FIRST_CHILD_ONLY,
    PRUNES_ONLY_AT_MAX,
    SOURCES,
    as_student,
    exercise,
    library,
    trees_of,
)
from tests.strategies import examples, game_trees

pytestmark = pytest.mark.slow

SHOWN = matching.SHOWN


def every_suspect_everywhere(
    student: Mapping[str, Signature], trees: Mapping[str, Tree], found: Exercise
) -> list[tuple[tuple[str, ...], int, float]] | None:
    """What the diagnosis should name, the slow way: every wrong implementation compared
    on every tree; those that match on every tree alone when there are, else the nearest
    group by how alike it is where either search departs from the reference, when that is
    near enough."""
    on_equality = found.options.prune_on_equality
    names = list(trees)
    reference = {
        name: matching._reference(found, trees[name], found.reference(trees[name])).reference(
            found, trees[name]
        )
        for name in names
    }
    departures = {name: agreement(student[name], reference[name], on_equality) for name in names}
    if all(departure.matches for departure in departures.values()):
        return None
    rows = []
    for implementation in library():
        if not implementation.is_wrong_for(found):
            continue
        signatures = {
            name: trusted_signature(run_trusted(implementation.source, found, trees[name]))
            for name in names
        }
        agreements = [agreement(student[name], signatures[name], on_equality) for name in names]
        shares = [
            share
            for name, between in zip(names, agreements, strict=True)
            for share in [
                departure_share(
                    departures[name],
                    agreement(signatures[name], reference[name], on_equality, student[name].view),
                    between,
                )
            ]
            if share is not None
        ]
        matched = sum(between.matches for between in agreements)
        if matched == len(names):
            key: tuple[float, ...] = (1, 1.0, 0)
        else:
            closeness = sum(shares) / len(shares) if shares else 1.0
            key = (0, closeness, sum(share == 1.0 for share in shares))
        rows.append((key, implementation.name, matched, signatures))
    rows.sort(key=lambda row: (tuple(-part for part in row[0]), row[1]))
    best = rows[0][0]
    if best[0] == 0 and best[1] + 1e-9 < matching.NEAR_ENOUGH:
        return []
    groups: list[list[tuple[tuple[float, ...], str, int, dict[str, Signature]]]] = []
    for row in rows:
        if any(abs(mine - theirs) > 1e-9 for mine, theirs in zip(row[0], best, strict=True)):
            break
        same = next(
            (
                group
                for group in groups
                if all(
                    agreement(group[0][3][name], row[3][name], True).matches
                    and agreement(row[3][name], group[0][3][name], True).matches
                    for name in names
                )
            ),
            None,
        )
        if same is not None:
            same.append(row)
        elif len(groups) < SHOWN:
            groups.append([row])
    return [
        (
            tuple(row[1] for row in group),
            group[0][2],
            round(1.0 if group[0][0][0] else group[0][0][1], 9),
        )
        for group in groups
    ]


def named(student: Mapping[str, Signature], trees: Mapping[str, Tree], found: Exercise):
    diagnosis = diagnose(student, trees, found, library())
    if diagnosis is None:
        return None
    return [
        (found.implementations, found.matched, round(found.closeness, 9))
        for found in diagnosis.misconceptions
    ]


WRITTEN = {
    "aima-fig5.2-alphabeta": [PRUNES_ONLY_AT_MAX],
    "aima-fig5.2-minimax": [FIRST_CHILD_ONLY],
    "grundy-7-negamax": [],
    "expectimax-dice": [],
}


@pytest.mark.parametrize("slug", sorted(WRITTEN))
def test_lazy_best_first_names_what_every_suspect_on_every_tree_names(slug: str) -> None:
    found, trees = exercise(slug), trees_of(slug)
    sources = [impl.source for impl in library() if impl.applies_to(found)] + WRITTEN[slug]
    for source in sources:
        student = as_student(source, found, trees)
        expected = every_suspect_everywhere(student, trees, found)
        clear_signatures()
        assert named(student, trees, found) == expected
        # and with every signature kept already (the order of the work differs)
        assert named(student, trees, found) == expected


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_trees(max_depth=4, max_branching=3, alternate=True))
def test_lazy_is_exact_on_random_trees_for_a_search_the_library_lacks(tree: Tree) -> None:
    found = exercise("aima-fig5.2-alphabeta")
    trees = {"public": trees_of("aima-fig5.2-alphabeta")["fig5.2"], "random": tree}
    student = as_student(PRUNES_ONLY_AT_MAX, found, trees)
    clear_signatures()  # with no tree met before, the nearest is looked for among all
    assert named(student, trees, found) == every_suspect_everywhere(student, trees, found)


def test_a_suspect_that_parts_from_the_search_early_is_not_run_on_the_other_trees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found, trees = exercise("aima-fig5.2-alphabeta"), trees_of("aima-fig5.2-alphabeta")
    name = "alphabeta/wrong_alpha_never_updated"
    source = next(impl.source for impl in library() if impl.name == name)
    student = as_student(source, found, trees)
    runs: list[str] = []
    real = matching.run_trusted

    def counted(source: str, exercise: Exercise, tree: Tree):  # type: ignore[no-untyped-def]
        runs.append(source)
        return real(source, exercise, tree)

    monkeypatch.setattr(matching, "run_trusted", counted)
    clear_signatures()
    diagnosis = diagnose(student, trees, found, library())
    assert diagnosis is not None and diagnosis.exact
    suspects = [impl for impl in library() if impl.is_wrong_for(found)]
    everything = len(suspects) * len(trees)
    assert len(runs) < everything / 3, (len(runs), everything)


COMPOSED = (SOURCES / "alphabeta_two_mistakes.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("slug", ["aima-fig5.2-alphabeta", "tictactoe-seed-alphabeta"])
def test_a_search_with_two_known_mistakes_is_told_both(slug: str) -> None:
    found, trees = exercise(slug), trees_of(slug)
    hidden = {name for name in trees if name.startswith("hidden")}
    student = as_student(COMPOSED, found, trees)
    diagnosis = diagnose(student, trees, found, library(), hidden=hidden)
    assert diagnosis is not None and not diagnosis.exact
    assert diagnosis.composed is not None
    pair = {
        diagnosis.composed.first.implementations[0],
        diagnosis.composed.second.implementations[0],
    }
    assert pair == {"alphabeta/wrong_initial_value_zero", "alphabeta/wrong_alpha_never_updated"}
    assert diagnosis.composed.explained == len(trees)
    assert diagnosis.describe().startswith("No single known misconception matches exactly.")
    assert "two known mistakes" in diagnosis.describe()
    report = diagnosis.report()
    assert report.composed is not None and report.composed.trees_explained == len(trees)
    assert {told.name for told in report.composed.misconceptions} == {
        diagnosis.composed.first.name,
        diagnosis.composed.second.name,
    }
    for told in report.composed.misconceptions:
        assert told.hidden_trees == told.hidden_matched == len(hidden) > 0
        assert all(not match.tree.startswith("hidden") for match in told.evidence)


def test_a_search_the_library_cannot_explain_gets_no_pair() -> None:
    found, trees = exercise("aima-fig5.2-alphabeta"), trees_of("aima-fig5.2-alphabeta")
    diagnosis = diagnose(as_student(PRUNES_ONLY_AT_MAX, found, trees), trees, found, library())
    assert diagnosis is not None and not diagnosis.exact and diagnosis.composed is None


def test_a_search_with_one_known_mistake_is_not_told_two() -> None:
    found, trees = exercise("aima-fig5.2-alphabeta"), trees_of("aima-fig5.2-alphabeta")
    exact = 0
    for impl in library():
        if impl.is_wrong_for(found):
            diagnosis = diagnose(as_student(impl.source, found, trees), trees, found, library())
            if diagnosis is not None and diagnosis.exact:
                exact += 1
                assert diagnosis.composed is None, impl.name
                assert "two known mistakes" not in diagnosis.describe()
    assert exact >= 10


def test_with_trees_met_before_the_nearest_is_the_best_of_the_nearest_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Named however far it is, so that there is a nearest to check.
    monkeypatch.setattr(matching, "NEAR_ENOUGH", 0.0)
    found, trees = exercise("aima-fig5.2-alphabeta"), trees_of("aima-fig5.2-alphabeta")
    student = as_student(PRUNES_ONLY_AT_MAX, found, trees)
    met = {name: trees[name] for name in ("fig5.2", "hidden-0")}
    clear_signatures()
    diagnose({name: student[name] for name in met}, met, found, library())  # met before
    for tree in met.values():  # every suspect's signature kept there
        for implementation in library():
            if implementation.is_wrong_for(found):
                matching.library_signature(
                    matching.tree_signatures(found, tree), found, tree, implementation
                )
    diagnosis = diagnose(student, trees, found, library())
    assert diagnosis is not None and not diagnosis.exact
    on_equality = found.options.prune_on_equality
    reference = {
        name: matching._reference(found, tree, found.reference(tree)).reference(found, tree)
        for name, tree in trees.items()
    }
    departing = {
        name for name in trees if not agreement(student[name], reference[name], on_equality).matches
    }

    def key(name: str, among: Mapping[str, Tree]) -> tuple[float, int]:
        """(closeness, trees alike) on ``among``, each other tree where the student's
        search departs counted as alike (the best it could still reach)."""
        source = next(impl.source for impl in library() if impl.name == name)
        shares = []
        for tree in among:
            theirs = trusted_signature(run_trusted(source, found, among[tree]))
            share = departure_share(
                agreement(student[tree], reference[tree], on_equality),
                agreement(theirs, reference[tree], on_equality, student[tree].view),
                agreement(student[tree], theirs, on_equality),
            )
            if share is not None:
                shares.append(share)
        shares += [1.0 for tree in departing if tree not in among]
        return (sum(shares) / len(shares) if shares else 1.0), sum(s == 1.0 for s in shares)

    wrong = [impl.name for impl in library() if impl.is_wrong_for(found)]
    ranked = sorted(wrong, key=lambda name: (tuple(-part for part in key(name, met)), name))
    candidates = ranked[: matching.NEAREST_AMONG]
    nearest = diagnosis.misconceptions[0].implementations[0]
    assert nearest in candidates
    assert key(nearest, trees) == max(key(name, trees) for name in candidates)
