"""The implementation library: headers hold, correct files pass, wrong files get caught."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.config import Settings
from reference.exercises import ENTRY_POINTS, Exercise, load_catalog
from reference.hidden import (
    DEVELOPMENT_KEY,
    LIBRARY_FOLDER,
    Implementation,
    catch_table,
    correct_for,
    judge_source,
    load_library,
    reference_judge,
    select_hidden_trees,
    wrong_for,
)
from reference.hidden.library import public_divergence
from reference.search import SearchOptions
from reference.tree import Kind, Tree
from tests.strategies import any_values, examples, game_trees

EXERCISES_DIR = Settings().exercises_dir
CATALOG = load_catalog(EXERCISES_DIR)
SHIPPED = [CATALOG.get(slug) for slug in CATALOG.slugs()]
LIBRARY = load_library(EXERCISES_DIR / LIBRARY_FOLDER)


def variant(slug: str, name: str, algorithm: str, *, prune_on_equality: bool = True) -> Exercise:
    """A shipped exercise's trees under another algorithm or pruning rule, for the
    algorithms and conventions no shipped exercise uses yet."""
    exercise = CATALOG.get(slug)
    options = dataclasses.replace(exercise.options, prune_on_equality=prune_on_equality)
    return dataclasses.replace(
        exercise,
        slug=name,
        algorithm=algorithm,
        options=options,
        entry_points=ENTRY_POINTS[algorithm],
    )


VARIANTS = [
    variant(
        "aima-fig5.2-alphabeta", "fig5.2-alphabeta-strict", "alphabeta", prune_on_equality=False
    ),
    variant("aima-fig5.2-alphabeta", "fig5.2-negamax-alphabeta", "negamax-alphabeta"),
    variant(
        "domineering-small-alphabeta",
        "domineering-negamax-alphabeta-strict",
        "negamax-alphabeta",
        prune_on_equality=False,
    ),
    variant("grundy-7-negamax", "grundy-7-negamax-alphabeta", "negamax-alphabeta"),
    variant("expectimax-dice", "dice-expectiminimax", "expectiminimax"),
]
EXERCISES = SHIPPED + VARIANTS
EXERCISE_IDS = [exercise.slug for exercise in EXERCISES]


def implementations(**where: str) -> list[Implementation]:
    return [
        impl for impl in LIBRARY if all(getattr(impl, key) == value for key, value in where.items())
    ]


# -- the library's shape ---------------------------------------------------------------


@pytest.mark.parametrize(
    "family", ["minimax", "alphabeta", "negamax", "depth-limited", "expectimax"]
)
def test_every_family_has_correct_files_and_at_least_ten_wrong_ones(family: str) -> None:
    counts = Counter(impl.expect for impl in implementations(family=family))
    assert counts["correct"] >= 2
    assert counts["wrong"] >= 10


def test_the_textbook_styles_are_all_there() -> None:
    names = {impl.name for impl in LIBRARY if impl.expect == "correct"}
    assert {
        "alphabeta/correct_fail_soft",
        "alphabeta/correct_fail_hard",
        "alphabeta/correct_search",
        "alphabeta/correct_strict",
        "minimax/correct_plain",
        "minimax/correct_decision",
        "negamax/correct_plain",
        "negamax/correct_alphabeta",
        "expectimax/correct_expectimax",
        "expectimax/correct_expectiminimax",
        "depth-limited/correct_countdown",
    } <= names
    assert "def alpha_beta_search(state, game):" in source_of("alphabeta/correct_search")


def source_of(name: str) -> str:
    return next(impl.source for impl in LIBRARY if impl.name == name)


def test_pruning_rules_split_correct_and_wrong() -> None:
    strict = CATALOG.get("aima-fig5.2-alphabeta")
    assert strict.options.prune_on_equality
    cs188 = next(impl for impl in LIBRARY if impl.name == "alphabeta/correct_strict")
    aima = next(impl for impl in LIBRARY if impl.name == "alphabeta/correct_fail_soft")
    assert cs188.is_wrong_for(strict) and aima.is_correct_for(strict)
    strict_variant = VARIANTS[0]
    assert cs188.is_correct_for(strict_variant) and aima.is_wrong_for(strict_variant)


@pytest.mark.parametrize(
    "impl",
    [impl for impl in LIBRARY if impl.first_divergence is not None],
    ids=lambda impl: impl.name,
)
def test_the_header_states_where_the_bug_first_shows(impl: Implementation) -> None:
    actual = public_divergence(impl, SHIPPED)
    assert impl.first_divergence == actual, (
        f"{impl.path}: the header should say '# first-divergence: {actual}'"
    )


# -- correct implementations agree with the reference ----------------------------------


@pytest.mark.parametrize("exercise", EXERCISES, ids=EXERCISE_IDS)
def test_correct_implementations_agree_on_the_public_trees(exercise: Exercise) -> None:
    correct = correct_for(exercise, LIBRARY)
    assert correct, f"no correct implementation for {exercise.slug}"
    for name, source in correct.items():
        for entry in exercise.trees:
            assert judge_source(source, exercise, entry.tree) is None, (name, entry.name)


def random_exercise(algorithm: str, options: SearchOptions) -> Exercise:
    return Exercise(
        slug="random",
        title="random",
        statement="",
        algorithm=algorithm,
        options=options,
        entry_points=ENTRY_POINTS[algorithm],
        trees=(),
    )


TWO_PLAYER = game_trees(alternate=True)
CHANCE = game_trees(
    kinds=(Kind.MAX, Kind.CHANCE), alternate=False, leaf_values=any_values
) | game_trees(kinds=(Kind.MAX, Kind.MIN, Kind.CHANCE), alternate=False, leaf_values=any_values)
HEURISTIC = game_trees(alternate=True, heuristics=True)


def random_cases(impl: Implementation) -> st.SearchStrategy[tuple[Exercise, Tree]]:
    """(exercise, tree) pairs the implementation is correct for."""
    algorithm = st.sampled_from(impl.algorithms)
    pruning = st.booleans() if impl.pruning is None else st.just(impl.pruning == "on-equality")
    limits = st.integers(0, 4) if impl.family == "depth-limited" else st.none()
    exercises = st.builds(
        random_exercise,
        algorithm,
        st.builds(SearchOptions, prune_on_equality=pruning, depth_limit=limits),
    )
    trees = {"depth-limited": HEURISTIC, "expectimax": CHANCE}.get(impl.family, TWO_PLAYER)
    return st.tuples(exercises, trees).filter(lambda case: _searchable(impl, *case))


def _searchable(impl: Implementation, exercise: Exercise, tree: Tree) -> bool:
    kinds = {node.kind for node in tree if not node.is_leaf}
    if exercise.algorithm == "expectimax" and Kind.MIN in kinds:
        return False
    # The decision forms choose for the player at the root, which a chance node is not.
    decision_form = "def max_value" not in impl.source and "def negamax(game" not in impl.source
    return not (decision_form and tree.root.kind is Kind.CHANCE)


@pytest.mark.parametrize("impl", implementations(expect="correct"), ids=lambda impl: impl.name)
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_correct_implementations_agree_on_random_trees(
    impl: Implementation, data: st.DataObject
) -> None:
    exercise, tree = data.draw(random_cases(impl))
    assert judge_source(impl.source, exercise, tree) is None


# -- wrong implementations are caught --------------------------------------------------


@pytest.mark.parametrize("exercise", EXERCISES, ids=EXERCISE_IDS)
def test_every_wrong_implementation_fails_on_a_hidden_tree(exercise: Exercise) -> None:
    wrong = wrong_for(exercise, LIBRARY)
    assert len(wrong) >= 8
    fails = reference_judge(exercise)
    selection = select_hidden_trees(exercise, DEVELOPMENT_KEY, wrong, fails)
    assert selection.uncaught == ()
    assert len(selection.trees) == exercise.hidden.count
    table = catch_table(selection.trees, wrong, fails)
    assert table.uncaught() == []
    for name, source in correct_for(exercise, LIBRARY).items():
        for hidden in selection.trees:
            assert not fails(source, hidden.tree), (name, hidden.name)


def test_every_wrong_file_is_checked_by_some_exercise() -> None:
    for impl in implementations(expect="wrong"):
        assert any(impl.applies_to(exercise) for exercise in EXERCISES), impl.name
