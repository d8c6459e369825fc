"""Diagnosis: every wrong search of the library, fed in as a student's, is named."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from reference.diagnosis import (
    NOT_A_VALUE,
    Signature,
    Step,
    agreement,
    diagnose,
    observed_signature,
    trusted_signature,
    values_agree,
)
from reference.diagnosis.findings import NONE_FITS
from reference.diagnosis.stored import tree_key
from reference.diagnosis.suspects import AddedSuspect, NotCompared
from reference.exercises.model import Exercise
from reference.hidden.library import Implementation, MisconceptionText
from reference.hidden.trusted import run_trusted
from reference.tree import Kind, Tree
from tests.reference.diagnosis_set import exercise, library, trees_of
from tests.strategies import examples, game_trees
from worker.harness.local import entry_spec, run_local

ROOT = Path(__file__).resolve().parents[2]
SOURCES = Path(__file__).resolve().parent / "sources"
SLUGS = ("aima-fig5.2-alphabeta", "aima-fig5.2-minimax", "grundy-7-negamax", "expectimax-dice")
# The shipped exercises, the library and each exercise's trees (its public ones and the
# first GENERATED hidden-tree candidates), kept once for every diagnosis test.


def as_student(source: str, found: Exercise, trees: dict[str, Tree]) -> dict[str, Signature]:
    """The signatures of ``source``'s search of ``trees`` as the sandbox's harness records
    them (run in process: the library is trusted code)."""
    signatures = {}
    for name, tree in trees.items():
        spec = entry_spec(found.algorithm, found.entry_points, tree, found.options.depth_limit)
        signatures[name] = observed_signature(run_local(tree, source, spec).observed)
    return signatures


def applying(slug: str, expect: str) -> list[str]:
    return [
        impl.name
        for impl in library()
        if impl.applies_to(exercise(slug)) and (impl.expect == expect)
    ]


def by_name(name: str) -> Implementation:
    return next(impl for impl in library() if impl.name == name)


CASES = [(slug, name) for slug in SLUGS for name in applying(slug, "wrong")]


@pytest.mark.parametrize(("slug", "name"), CASES)
def test_every_wrong_implementation_is_diagnosed_as_itself(slug: str, name: str) -> None:
    found, trees = exercise(slug), trees_of(slug)
    student = as_student(by_name(name).source, found, trees)
    diagnosis = diagnose(student, trees, found, library(), hidden={"hidden-0"})
    if diagnosis is None:
        # Only a wrong search that these trees cannot tell from the reference's.
        trusted = {
            n: trusted_signature(run_trusted(by_name(name).source, found, t))
            for n, t in trees.items()
        }
        assert trusted == student
        pytest.skip(f"{name} searches these trees as the reference does")
    assert diagnosis.exact, diagnosis.describe()
    first = diagnosis.misconceptions[0]
    assert name in first.implementations
    assert first.matched == first.trees == len(trees)
    assert "exactly" in diagnosis.describe()
    told = first.told[first.implementations.index(name)]
    misconception = by_name(name).misconception
    if misconception is not None:
        assert told == misconception
    assert first.name in diagnosis.describe()
    assert all(told.hint and told.explanation and told.pseudocode for told in first.told)
    hidden = next(evidence for evidence in first.evidence if evidence.tree == "hidden-0")
    assert hidden.first_difference is None
    report = diagnosis.report()
    assert report.exact and report.summary == diagnosis.describe()
    told = report.misconceptions[0]
    assert (told.name, told.trees_matched, told.hidden_trees, told.hidden_matched) == (
        first.name,
        len(trees),
        1,
        1,
    )
    assert [match.tree for match in told.evidence] == [t for t in trees if t != "hidden-0"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_correct_implementation_gets_no_diagnosis(slug: str) -> None:
    found, trees = exercise(slug), trees_of(slug)
    correct = [impl for impl in library() if impl.is_correct_for(found)]
    assert correct
    for impl in correct:
        assert diagnose(as_student(impl.source, found, trees), trees, found, library()) is None, (
            impl.name
        )


def test_the_harness_and_the_trusted_runner_leave_the_same_signature() -> None:
    found, trees = exercise("aima-fig5.2-alphabeta"), trees_of("aima-fig5.2-alphabeta")
    for impl in library():
        if impl.applies_to(found):
            student = as_student(impl.source, found, trees)
            for name, tree in trees.items():
                trusted = trusted_signature(run_trusted(impl.source, found, tree))
                assert agreement(student[name], trusted, True).matches, (impl.name, name)


PRUNES_ONLY_AT_MAX = (SOURCES / "alphabeta_prunes_only_at_max.py").read_text(encoding="utf-8")

FIRST_CHILD_ONLY = """
def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    first = game.actions(state)[0]
    return min_value(game, game.result(state, first))


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    first = game.actions(state)[0]
    return max_value(game, game.result(state, first))
"""


def test_minimax_that_returns_its_first_childs_value_is_the_return_in_the_loop() -> None:
    found, trees = exercise("aima-fig5.2-minimax"), trees_of("aima-fig5.2-minimax")
    diagnosis = diagnose(as_student(FIRST_CHILD_ONLY, found, trees), trees, found, library())
    assert diagnosis is not None and diagnosis.exact
    first = diagnosis.misconceptions[0]
    assert "minimax/wrong_return_in_loop" in first.implementations
    misconception = by_name(first.implementations[0]).misconception
    assert misconception is not None and first.name == misconception.name
    assert diagnosis.describe() == (
        f"Your search behaves exactly like one with this mistake: {misconception.name} "
        f"(same visits and values on {len(trees)} of {len(trees)} trees)."
    )
    assert first.bugs[0] not in diagnosis.describe()


def test_alphabeta_that_prunes_only_at_max_nodes_is_near_a_known_mistake_or_none() -> None:
    found = exercise("aima-fig5.2-alphabeta")
    # Trees with MAX at the root: on MIN-rooted ones the nearest is a tie between
    # unrelated mistakes, which the ranking of nearest misconceptions does not yet break
    # by kinship.
    trees = {
        name: tree
        for name, tree in trees_of("aima-fig5.2-alphabeta").items()
        if tree.root.kind is Kind.MAX
    }
    diagnosis = diagnose(as_student(PRUNES_ONLY_AT_MAX, found, trees), trees, found, library())
    assert diagnosis is not None
    assert not diagnosis.exact
    if not diagnosis.misconceptions:
        # Where the two depart from the reference they part soon after: not near enough.
        assert diagnosis.describe() == NONE_FITS
        return
    assert diagnosis.describe().startswith("No known misconception matches exactly.")
    nearest = diagnosis.misconceptions[0]
    assert nearest.matched < nearest.trees
    # It prunes at MAX nodes as the reference does: its nearest never prunes at MIN nodes
    # either way, or never prunes at all.
    assert nearest.implementations[0] in {
        "alphabeta/wrong_no_pruning",
        "alphabeta/wrong_beta_never_updated",
    }, nearest.implementations
    ranked = [(m.matched, m.closeness) for m in diagnosis.misconceptions]
    assert ranked == sorted(ranked, reverse=True)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_trees(max_depth=4, max_branching=3, alternate=True))
def test_a_wrong_search_is_diagnosed_as_itself_on_random_trees(tree: Tree) -> None:
    found = exercise("aima-fig5.2-alphabeta")
    trees = {"public": trees_of("aima-fig5.2-alphabeta")["fig5.2"], "random": tree}
    name = "alphabeta/wrong_alpha_never_updated"
    diagnosis = diagnose(as_student(by_name(name).source, found, trees), trees, found, library())
    assert diagnosis is not None and diagnosis.exact
    assert name in diagnosis.misconceptions[0].implementations


def test_fail_hard_and_fail_soft_values_agree_outside_the_window_only() -> None:
    window = (3, 8)
    assert values_agree(2, 3, window, True)  # both fail low (3 is alpha: on equality, low)
    assert values_agree(9, 12, window, True)
    assert not values_agree(2, 9, window, True)
    assert not values_agree(4, 5, window, True)  # inside: only the value itself
    assert not values_agree(2, 3, window, False)  # strict rule: 3 is inside
    assert not values_agree(2, NOT_A_VALUE, window, True)
    assert values_agree(None, 5, window, True)  # a leaf scored in its parent's loop


def test_a_leaf_scored_in_the_parents_loop_agrees_with_a_call_on_it() -> None:
    called = Signature(
        (
            Step("enter", "A", 0, 9),
            Step("leaf", "A1", 0, 9, value=3),
            Step("exit", "A", 0, 9, value=3),
        )
    )
    looped = Signature(
        (Step("enter", "A", 0, 9), Step("leaf", "A1"), Step("exit", "A", 0, 9, value=3))
    )
    assert agreement(looped, called, True).matches
    other = Signature(
        (Step("enter", "A", 0, 9), Step("leaf", "A2"), Step("exit", "A", 0, 9, value=3))
    )
    found = agreement(other, called, True)
    assert (found.matches, found.agreeing, found.first_difference) == (False, 1, "A2")


def test_an_added_suspect_that_cannot_be_run_on_a_tree_is_left_out_not_named() -> None:
    # An instructor's implementation that searched as the student does on every tree its
    # signatures were stored for, which its course's budget cannot pay to run on the one
    # left: it is not named, not even as the nearest (on all but one tree it would be).
    found, trees = exercise("aima-fig5.2-alphabeta"), trees_of("aima-fig5.2-alphabeta")
    student = as_student(PRUNES_ONLY_AT_MAX, found, trees)
    unrun = "hidden-5"
    stored = {tree_key(tree): student[name] for name, tree in trees.items() if name != unrun}
    told = MisconceptionText(name="mine", explanation="", pseudocode="", hint="")

    def unpaid(tree: Tree) -> Signature | None:
        raise NotCompared("mine.py")

    def paid(tree: Tree) -> Signature | None:
        return as_student(PRUNES_ONLY_AT_MAX, found, {"tree": tree})["tree"]

    left_out = diagnose(
        student, trees, found, library(), added=[AddedSuspect("added/mine", told, stored, unpaid)]
    )
    named = diagnose(
        student, trees, found, library(), added=[AddedSuspect("added/mine", told, stored, paid)]
    )

    assert left_out is not None and named is not None
    assert all("added/mine" not in m.implementations for m in left_out.misconceptions)
    assert named.exact and named.misconceptions[0].implementations == ("added/mine",)
