"""The registry of algorithms: one entry per algorithm, agreeing with everything that reads
it (the reference engine, the exercise model, the hidden-tree generator, the starter)."""

from __future__ import annotations

import dataclasses

import pytest

from reference.algorithms import ALGORITHMS, find_decision
from reference.exercises import ENTRY_POINTS
from reference.hidden import LAYERS
from reference.search import SearchError, SearchOptions
from reference.starter import entry_parameters, starter_source
from reference.tree import Kind
from tests.reference.test_hidden import CATALOG, LIBRARY

NAMES = sorted(ALGORITHMS)


@pytest.mark.parametrize("name", NAMES)
def test_each_algorithm_names_its_reference_search(name: str) -> None:
    assert ALGORITHMS[name].reference.name == name


def test_the_registry_is_the_one_table_of_algorithms_by_name() -> None:
    import reference.search

    # The engine keeps no table of its own: its searches are the registry's ``reference``.
    assert not hasattr(reference.search, "ALGORITHMS")


@pytest.mark.parametrize("name", NAMES)
def test_the_tables_read_from_the_registry(name: str) -> None:
    algorithm = ALGORITHMS[name]
    assert ENTRY_POINTS[name] == algorithm.entry_points
    assert LAYERS[name] == algorithm.layers
    assert algorithm.layers[0] is Kind.MAX
    assert len(algorithm.entry_points) == (1 if algorithm.negamax else len(set(algorithm.layers)))
    assert algorithm.summary and algorithm.decisions
    assert len(set(algorithm.decision_names)) == len(algorithm.decisions)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("depth_limit", [None, 2])
def test_each_algorithms_starter_compiles_with_its_entry_points(
    name: str, depth_limit: int | None
) -> None:
    exercise = CATALOG.get("aima-fig5.2-minimax")
    options = dataclasses.replace(exercise.options, depth_limit=depth_limit)
    exercise = dataclasses.replace(
        exercise, algorithm=name, entry_points=ALGORITHMS[name].entry_points, options=options
    )
    source = starter_source(exercise)
    namespace: dict[str, object] = {}
    exec(compile(source, "starter.py", "exec"), namespace)
    parameters = entry_parameters(exercise)
    for entry in ALGORITHMS[name].entry_points:
        assert f"def {entry}({parameters}):" in source
        assert callable(namespace[entry])
    assert ALGORITHMS[name].summary.split()[0] in source
    if ALGORITHMS[name].windowed:
        assert "alpha, beta" in parameters
    assert parameters.endswith(", depth") == (depth_limit is not None)


def test_a_decision_function_is_found_first_preferred() -> None:
    def alpha_beta_search(state: object, game: object) -> str:
        return "a1"

    names = {"alphabeta_search": object(), "alpha_beta_search": alpha_beta_search}
    found = find_decision(ALGORITHMS["alphabeta"], names.get)
    assert found is not None and found[0].name == "alpha_beta_search"
    assert find_decision(ALGORITHMS["alphabeta"], {}.get) is None


@pytest.mark.parametrize("name", NAMES)
def test_the_library_has_correct_and_wrong_implementations_of_every_algorithm(name: str) -> None:
    applying = [item for item in LIBRARY if name in item.algorithms]
    correct = [item for item in applying if item.expect == "correct"]
    wrong = [item for item in applying if item.expect == "wrong"]
    assert correct and wrong, (name, len(correct), len(wrong))


@pytest.mark.parametrize("name", NAMES)
def test_every_algorithm_has_an_exercise(name: str) -> None:
    assert any(CATALOG.get(slug).algorithm == name for slug in CATALOG.slugs()), name


def test_a_depth_limited_algorithm_needs_a_depth_limit() -> None:
    for name in ("depth-limited-minimax", "depth-limited-alphabeta"):
        with pytest.raises(SearchError, match="needs a depth limit"):
            ALGORITHMS[name].reference(SearchOptions())
