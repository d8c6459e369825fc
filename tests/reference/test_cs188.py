"""Importing Berkeley CS188 game-tree tests: the sample files, then every located problem."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.cli.import_cs188 import import_cs188 as import_cs188_command
from reference.contracts import ContractChoice
from reference.cs188 import (
    Cs188Import,
    Cs188Solution,
    check_solution,
    import_file,
    import_solution,
    import_text,
)
from reference.exercises.loader import load_exercise
from reference.problems import FileProblems, Problem
from reference.search import SearchError, SearchOptions, SearchResult, search
from reference.tree import Kind
from tests.strategies import examples

DATA = Path(__file__).parent / "data" / "cs188"


def shape(result: Cs188Import) -> list[tuple[str, Kind, list[str]]]:
    """Each node as (name, kind, actions), in preorder."""
    return [(node.name, node.kind, [e.action for e in node.edges]) for node in result.tree]


def utilities(result: Cs188Import) -> dict[str, object]:
    return {node.name: node.utility for node in result.tree.leaves()}


def heuristics(result: Cs188Import) -> dict[str, object]:
    return {node.name: node.heuristic for node in result.tree if node.heuristic is not None}


def problems_of(text: str) -> list[Problem]:
    with pytest.raises(FileProblems) as caught:
        import_text(text, "t.test")
    return caught.value.problems


def the_problem(text: str) -> Problem:
    problems = problems_of(text)
    assert len(problems) == 1, problems
    return problems[0]


def make_file(*body: str, **keys: str) -> str:
    """A small valid two-agent test file; ``keys`` replace whole entries, ``body`` is appended.

    Unchanged, its lines are: 1 class, 2 num_agents, 3 start_state, 4 win_states,
    5 lose_states, 6-11 successors (moves on 7-10), 12-16 evaluation (values on 13-15);
    the body starts on line 17.
    """
    entries = {
        "class": 'class: "GraphGameTreeTest"',
        "num_agents": 'num_agents: "2"',
        "start_state": 'start_state: "r"',
        "win_states": 'win_states: "x"',
        "lose_states": 'lose_states: "y"',
        "successors": 'successors: """\nr L m\nr R y\nm L x\nm R z\n"""',
        "evaluation": 'evaluation: """\nx 1\ny -1\nz 0\n"""',
    }
    entries.update(keys)
    return "\n".join([*(entry for entry in entries.values() if entry), *body]) + "\n"


# --- the sample files ---------------------------------------------------------------------


def test_two_agents_alternate_max_and_min_in_file_order() -> None:
    result = import_file(DATA / "two_agents.test")

    assert shape(result) == [
        ("top", Kind.MAX, ["West", "Stop", "East"]),
        ("lo", Kind.MIN, ["West", "East"]),
        ("w1", Kind.LEAF, []),
        ("l1", Kind.LEAF, []),
        ("mid", Kind.MIN, ["Stop"]),
        ("w2", Kind.LEAF, []),
        ("hi", Kind.MIN, ["West", "East"]),
        ("w3", Kind.LEAF, []),
        ("l2", Kind.LEAF, []),
    ]
    assert utilities(result) == {"w1": 7, "l1": -3, "w2": 5, "w3": 9, "l2": -1}
    assert heuristics(result) == {}
    assert (result.num_agents, result.depth, result.cutoff_depth) == (2, 2, 4)


def test_comments_are_dropped_outside_blocks_and_kept_inside_them() -> None:
    result = import_file(DATA / "two_agents.test")

    assert result.metadata["alg"] == "MinimaxAgent"
    assert result.metadata["class"] == "GraphGameTreeTest"
    diagram = result.metadata["diagram"].split("\n")
    assert diagram[0] == "          top"
    assert diagram[-1].startswith("# inside a block this line is kept")
    assert set(result.metadata) == {"class", "alg", "diagram"}


def test_three_agents_give_two_min_layers_after_each_max_layer() -> None:
    result = import_file(DATA / "three_agents.test")

    assert shape(result) == [
        ("p", Kind.MAX, ["Left", "Right"]),
        ("ga", Kind.MIN, ["North", "South"]),
        ("gaa", Kind.MIN, ["East", "West"]),
        ("x1", Kind.LEAF, []),
        ("x2", Kind.LEAF, []),
        ("gab", Kind.MIN, ["Stop"]),
        ("x3", Kind.LEAF, []),
        ("gb", Kind.MIN, ["North"]),
        ("gba", Kind.MIN, ["East", "West"]),
        ("pb", Kind.MAX, ["Stop"]),
        ("x5", Kind.LEAF, []),
        ("x4", Kind.LEAF, []),
    ]
    assert utilities(result) == {"x1": 4, "x2": 8, "x3": 6, "x5": 11, "x4": 2}
    assert heuristics(result) == {"pb": 3.5}
    assert (result.num_agents, result.depth, result.cutoff_depth) == (3, 1, 3)


def test_internal_states_with_an_evaluation_keep_it_as_their_heuristic() -> None:
    """An ExpectimaxAgent test: its ghost is a chance node."""
    result = import_file(DATA / "depth_cutoff.test")

    assert shape(result) == [
        ("s", Kind.MAX, ["Left", "Center", "Right"]),
        ("a", Kind.CHANCE, ["Down"]),
        ("c", Kind.MAX, ["Down"]),
        ("f", Kind.CHANCE, ["Down"]),
        ("h", Kind.LEAF, []),
        ("b", Kind.CHANCE, ["Left", "Right"]),
        ("d", Kind.MAX, ["Down"]),
        ("g", Kind.CHANCE, ["Down"]),
        ("i", Kind.LEAF, []),
        ("e", Kind.LEAF, []),
        ("trap", Kind.LEAF, []),
    ]
    assert heuristics(result) == {"c": 2.5, "d": -1.25, "f": 0.0}
    assert utilities(result) == {"h": 9.0, "i": -8.0, "e": 4.0, "trap": -50.0}
    assert result.metadata["alg"] == "ExpectimaxAgent"


def test_win_and_lose_states_are_leaves_even_with_successors() -> None:
    text = make_file(
        successors='successors: """\nr L m\nr R y\nm L x\nm R z\nx On deeper\n"""',
    )

    result = import_text(text)

    assert result.tree["x"].kind is Kind.LEAF
    assert "deeper" not in result.tree


def test_integer_evaluations_stay_integers_and_decimals_become_floats() -> None:
    result = import_text(make_file(evaluation='evaluation: """\nx 3\ny -2.5\nz 1e2\n"""'))

    assert utilities(result) == {"x": 3, "y": -2.5, "z": 100.0}
    assert isinstance(result.tree["x"].utility, int)


def test_one_line_values_crlf_line_ends_and_no_depth_are_accepted() -> None:
    text = (
        'num_agents: "2"\r\nstart_state: "r"\r\nwin_states: "a"\r\nlose_states: ""\r\n'
        'successors: "r go a"\r\nevaluation: "a 5"   # one move, one leaf\r\n'
    )

    result = import_text(text)

    assert shape(result) == [("r", Kind.MAX, ["go"]), ("a", Kind.LEAF, [])]
    assert (result.depth, result.cutoff_depth, result.metadata) == (None, None, {})


def test_blank_and_comment_lines_inside_successors_and_evaluation_are_skipped() -> None:
    text = make_file(
        successors='successors: """\nr L m   # to the ghost\n\nr R y\n# a note\nm L x\nm R z\n"""'
    )

    assert [node.name for node in import_text(text).tree] == ["r", "m", "x", "z", "y"]


def test_a_single_leaf_start_state_makes_a_one_node_tree() -> None:
    text = make_file(
        win_states='win_states: "r"',
        lose_states='lose_states: ""',
        successors='successors: ""',
        evaluation='evaluation: "r 4"',
    )

    result = import_text(text)

    assert shape(result) == [("r", Kind.LEAF, [])]
    assert result.tree.root.utility == 4


def test_deep_chains_import_without_recursion() -> None:
    count = 5000
    lines = [f"s{i} go s{i + 1}" for i in range(count)]
    text = make_file(
        start_state='start_state: "s0"',
        win_states=f'win_states: "s{count}"',
        lose_states='lose_states: ""',
        successors='successors: """\n' + "\n".join(lines) + '\n"""',
        evaluation=f'evaluation: "s{count} 1"',
    )

    result = import_text(text)

    assert len(result.tree) == count + 1
    assert result.tree[f"s{count - 1}"].kind is Kind.MIN


# --- located problems ---------------------------------------------------------------------


def test_an_empty_file_is_one_problem() -> None:
    assert the_problem("  \n\n") == Problem("t.test", 1, 1, "the file is empty")


def test_a_file_of_comments_only_has_no_keys() -> None:
    problem = the_problem("# nothing\n   # here\n")

    assert (problem.line, problem.column) == (1, 1)
    assert "no keys" in problem.message


def test_a_missing_required_key_is_reported_at_the_top() -> None:
    problem = the_problem(make_file(evaluation=""))

    assert problem == Problem("t.test", 1, 1, "missing required key 'evaluation'")


def test_a_line_that_is_not_key_value() -> None:
    problem = the_problem(make_file("  just some words"))

    assert (problem.line, problem.column) == (17, 3)
    assert "expected 'key:" in problem.message


def test_a_value_without_quotes() -> None:
    problem = the_problem(make_file(num_agents="num_agents:   2"))

    assert (problem.line, problem.column) == (2, 15)
    assert "must be in double quotes" in problem.message


def test_an_unclosed_quote_mentions_that_hash_starts_a_comment() -> None:
    problem = the_problem(make_file('alg: "Agent#2"'))

    assert (problem.line, problem.column) == (17, 6)
    assert "no closing quote" in problem.message
    assert "'#' starts a comment" in problem.message


def test_text_after_the_closing_quote() -> None:
    problem = the_problem(make_file(start_state='start_state: "r" "s"'))

    assert (problem.line, problem.column) == (3, 18)
    assert "unexpected text after the value of 'start_state'" in problem.message


def test_a_multi_line_value_starting_on_its_opening_line() -> None:
    problem = the_problem(make_file('diagram: """ r\n"""'))

    assert (problem.line, problem.column) == (17, 14)
    assert "starts on the line after" in problem.message


def test_an_unterminated_block_at_the_end_of_the_file() -> None:
    problem = the_problem(make_file('diagram: """\n  r\n / \\'))

    assert (problem.line, problem.column) == (17, 10)
    assert "'diagram' is not closed" in problem.message


def test_an_unterminated_block_followed_by_another_block() -> None:
    text = make_file(
        successors='successors: """\nr L m\nr R y\nm L x\nm R z',
        evaluation='evaluation: """\nx 1\ny -1\nz 0\n"""',
    )

    problem = the_problem(text)

    assert (problem.line, problem.column) == (6, 13)
    assert "line 11 opens another one" in problem.message


def test_a_duplicate_key_names_the_first_line() -> None:
    problem = the_problem(make_file('num_agents: "3"'))

    assert (problem.line, problem.column) == (17, 1)
    assert "duplicate key 'num_agents' (first on line 2)" in problem.message


@pytest.mark.parametrize("value", ["two", "0", "1.5", "-2", "²"])
def test_a_bad_number_of_agents(value: str) -> None:
    problem = the_problem(make_file(num_agents=f'num_agents: "{value}"'))

    assert (problem.line, problem.column) == (2, 14)
    assert f"num_agents must be a whole number, at least 1, not {value!r}" in problem.message


def test_a_bad_depth() -> None:
    problem = the_problem(make_file('depth: " 0"'))

    assert (problem.line, problem.column) == (17, 10)
    assert "depth must be a whole number" in problem.message


def test_a_class_that_is_not_a_game_tree_test() -> None:
    problem = the_problem(make_file(**{"class": 'class: "EvalAgentTest"'}))

    assert (problem.line, problem.column) == (1, 9)
    assert "'EvalAgentTest' is not a game-tree test" in problem.message


def test_a_start_state_of_two_words() -> None:
    problem = the_problem(make_file(start_state='start_state: "r m"'))

    assert (problem.line, problem.column) == (3, 17)
    assert "start_state must be one word" in problem.message


def test_a_start_state_that_no_successor_line_starts_with() -> None:
    problem = the_problem(make_file(start_state='start_state: "q"'))

    assert (problem.line, problem.column) == (3, 15)
    assert "the start state 'q' has no successors" in problem.message


@pytest.mark.parametrize(
    ("line", "words"), [("r L", 2), ("r L m extra", 4)], ids=["too few", "too many"]
)
def test_a_malformed_successor_line(line: str, words: int) -> None:
    text = make_file(successors=f'successors: """\nr L m\nr R y\n  {line}\nm L x\nm R z\n"""')

    problem = the_problem(text)

    assert (problem.line, problem.column) == (9, 3)
    assert f"'state action next_state', not {words} words" in problem.message


def test_a_malformed_evaluation_line() -> None:
    problem = the_problem(make_file(evaluation='evaluation: """\nx 1\ny\nz 0\n"""'))

    assert (problem.line, problem.column) == (14, 1)
    assert "an evaluation line is 'state value', not 1 words" in problem.message


def test_a_non_numeric_evaluation() -> None:
    problem = the_problem(make_file(evaluation='evaluation: """\nx 1\ny  minus-one\nz 0\n"""'))

    assert (problem.line, problem.column) == (14, 4)
    assert "the evaluation of 'y' is not a number: 'minus-one'" in problem.message


@pytest.mark.parametrize("value", ["nan", "inf", "-Infinity", "1e999"])
def test_an_evaluation_that_is_not_finite(value: str) -> None:
    problem = the_problem(make_file(evaluation=f'evaluation: """\nx 1\ny {value}\nz 0\n"""'))

    assert (problem.line, problem.column) == (14, 3)
    assert f"the evaluation of 'y' must be finite, not {value!r}" in problem.message


def test_a_state_evaluated_twice() -> None:
    problem = the_problem(make_file(evaluation='evaluation: """\nx 1\ny -1\nz 0\nx 2\n"""'))

    assert (problem.line, problem.column) == (16, 1)
    assert "state 'x' is evaluated twice (the first on line 13)" in problem.message


def test_an_unknown_state_in_the_evaluation() -> None:
    problem = the_problem(make_file(evaluation='evaluation: """\nx 1\ny -1\nz 0\n  zz 3\n"""'))

    assert (problem.line, problem.column) == (16, 3)
    assert "unknown state 'zz' in evaluation" in problem.message


def test_an_unknown_state_in_the_win_or_lose_states_is_a_warning() -> None:
    text = make_file(win_states='win_states: "x  xx"', lose_states='lose_states: "gone y"')

    result = import_text(text, "t.test")

    assert [(w.line, w.column) for w in result.warnings] == [(4, 17), (5, 15)]
    assert "unknown state 'xx' in win_states: no successor line names it" in (
        result.warnings[0].message
    )
    assert "unknown state 'gone' in lose_states" in result.warnings[1].message
    assert utilities(result) == {"x": 1, "z": 0, "y": -1}


def test_two_moves_with_the_same_action() -> None:
    text = make_file(successors='successors: """\nr L m\nr L y\nm L x\nm R z\n"""')

    problem = the_problem(text)

    assert (problem.line, problem.column) == (8, 3)
    assert "state 'r' has two moves 'L' (the first on line 7)" in problem.message


def test_a_state_reached_twice_is_not_a_tree() -> None:
    text = make_file(successors='successors: """\nr L m\nr R y\nm L x\nm R y\nm S z\n"""')

    problem = the_problem(text)

    assert (problem.line, problem.column) == (10, 5)
    assert "state 'y' is reached twice (first on line 8)" in problem.message


def test_a_cycle_back_to_an_ancestor() -> None:
    text = make_file(successors='successors: """\nr L m\nr R y\nm L x\nm R r\nm S z\n"""')

    problem = the_problem(text)

    assert (problem.line, problem.column) == (10, 5)
    assert "cycle: 'm' leads back to its ancestor 'r'" in problem.message


def test_a_state_that_is_its_own_successor() -> None:
    text = make_file(successors='successors: """\nr L m\nr R y\nm L x\nm R m\nm S z\n"""')

    problem = the_problem(text)

    assert (problem.line, problem.column) == (10, 5)
    assert "cycle: state 'm' is its own successor" in problem.message


def test_a_leaf_without_an_evaluation() -> None:
    problem = the_problem(make_file(evaluation='evaluation: """\nx 1\ny -1\n"""'))

    assert (problem.line, problem.column) == (10, 5)
    assert "leaf 'z' has no evaluation value" in problem.message


def test_every_problem_is_reported_at_once_in_file_order() -> None:
    text = make_file(
        num_agents='num_agents: "many"',
        evaluation='evaluation: """\nx one\ny -1\nz nan\nw 2\n"""',
    )

    problems = problems_of(text)

    assert [(p.line, p.column) for p in problems] == [(2, 14), (13, 3), (15, 3), (16, 1)]
    assert "unknown state 'w'" in problems[-1].message


def test_bytes_that_are_not_utf8_are_located(tmp_path: Path) -> None:
    path = tmp_path / "latin1.test"
    path.write_bytes(make_file().encode() + 'alg: "Caf\xe9"\n'.encode("latin-1"))

    with pytest.raises(FileProblems) as caught:
        import_file(path)

    [problem] = caught.value.problems
    assert (problem.file, problem.line, problem.column) == (str(path), 17, 10)
    assert "not UTF-8" in problem.message
    assert "0xe9" in problem.message


def test_an_empty_file_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "empty.test"
    path.write_bytes(b"")

    with pytest.raises(FileProblems) as caught:
        import_file(path)

    assert caught.value.problems == [Problem(str(path), 1, 1, "the file is empty")]


# --- CS188's conventions: my own test_cases/ folder, with solutions worked out by hand ---

CASES = DATA / "test_cases"
GAME_TREE_TESTS = sorted(path for path in CASES.rglob("*.test") if path.parent.name != "q1")


def case_id(test: Path) -> str:
    return f"{test.parent.name}-{test.stem}"


def solution_of(test: Path) -> Cs188Solution:
    return import_solution(test.with_suffix(".solution"))


def generated(result: SearchResult) -> set[str]:
    """CS188's generated states: the start state and every successor the search asked for."""
    return set(result.trace.visited())


def test_the_fixtures_cover_each_agent_with_two_and_three_agents_and_depths_1_and_2() -> None:
    imported = [import_file(test) for test in GAME_TREE_TESTS]

    assert {(i.algorithm, i.num_agents) for i in imported} == {
        (algorithm, agents)
        for algorithm in ("minimax", "alphabeta", "expectimax")
        for agents in (2, 3)
    }
    assert {i.depth for i in imported} == {1, 2}
    assert all(i.warnings for i in imported)  # every fixture names unused win/lose states


@pytest.mark.parametrize("test", GAME_TREE_TESTS, ids=case_id)
def test_the_search_reproduces_cs188s_action_and_generated_states(test: Path) -> None:
    imported = import_file(test)

    result = search(imported.tree, imported.algorithm or "", imported.options)

    solution = solution_of(test)
    assert result.decision == solution.action
    assert generated(result) == set(solution.generated)
    assert check_solution(imported, solution) == []


@pytest.mark.parametrize("test", GAME_TREE_TESTS, ids=case_id)
def test_the_fixtures_tell_a_wrong_depth_apart(test: Path) -> None:
    """Counting CS188's depth in plies, or one ply too deep, misses the solution."""
    imported = import_file(test)
    solution = solution_of(test)
    assert imported.depth is not None

    for limit in (imported.depth, imported.depth * imported.num_agents + 1):
        options = dataclasses.replace(imported.options, depth_limit=limit)
        try:
            result = search(imported.tree, imported.algorithm or "", options)
        except SearchError:
            continue  # cut off at a state with no evaluation: CS188 would raise too
        assert (result.decision, generated(result)) != (solution.action, set(solution.generated))


@pytest.mark.parametrize("test", [t for t in GAME_TREE_TESTS if t.parent.name == "q3"], ids=case_id)
def test_the_alphabeta_fixtures_tell_aimas_pruning_rule_apart(test: Path) -> None:
    imported = import_file(test)
    aima = dataclasses.replace(imported.options, prune_on_equality=True)

    result = search(imported.tree, "alphabeta", aima)

    assert imported.options.prune_on_equality is False
    assert generated(result) != set(solution_of(test).generated)


@pytest.mark.parametrize("test", [t for t in GAME_TREE_TESTS if t.parent.name == "q4"], ids=case_id)
def test_expectimax_ghosts_are_chance_nodes_with_uniform_probabilities(test: Path) -> None:
    imported = import_file(test)
    tree = imported.tree

    ghosts = [node for node in tree if node.kind is Kind.CHANCE]
    assert ghosts
    assert {node.kind for node in tree if not node.is_leaf} == {Kind.MAX, Kind.CHANCE}
    for node in ghosts:
        assert [edge.probability for edge in node.edges] == [Fraction(1, len(node.edges))] * len(
            node.edges
        )
    minimax = search(tree, "expectiminimax", imported.options)
    assert minimax.value == search(tree, "expectimax", imported.options).value


def test_expectimax_values_are_averages_of_the_ghosts_moves() -> None:
    imported = import_file(CASES / "q4" / "1-two-agents-depth1.test")

    values = search(imported.tree, "expectimax", imported.options).trace.values()

    assert (values["B"], values["C"], values["A"]) == (3, Fraction(7, 2), Fraction(7, 2))


def test_a_solution_that_the_search_does_not_reproduce_is_reported(tmp_path: Path) -> None:
    imported = import_file(CASES / "q3" / "1-two-agents-depth2.test")
    wrong = Cs188Solution("Right", ("A", "B", "C"))

    messages = check_solution(imported, wrong)

    assert messages[0] == "the search chooses 'Left', the solution 'Right'"
    assert messages[1].startswith("the search generates D, E, F, ")


def test_a_solution_file_without_generated_states_or_with_two_actions(tmp_path: Path) -> None:
    path = tmp_path / "t.solution"
    path.write_text('# a comment\naction: "Left Right"\n', encoding="utf-8")

    with pytest.raises(FileProblems) as caught:
        import_solution(path)

    assert [str(problem) for problem in caught.value.problems] == [
        f"{path}:1:1: missing required key 'generated'",
        f"{path}:2:15: action must be one word, not 2",
    ]


def test_an_older_solution_file_names_the_states_expanded(tmp_path: Path) -> None:
    """Earlier terms' autograder wrote ``expanded``: the same states, for a correct agent."""
    test = CASES / "q3" / "1-two-agents-depth2.test"
    current = import_solution(test.with_suffix(".solution"))
    path = tmp_path / "t.solution"
    words = " ".join(current.generated)
    path.write_text(f'action: "{current.action}"\nexpanded: "{words}"\n', encoding="utf-8")

    older = import_solution(path)

    assert older == current
    assert check_solution(import_file(test), older) == []


# --- the command --------------------------------------------------------------------------


@pytest.fixture
def import_cs188() -> click.Command:
    return import_cs188_command


def test_the_command_prints_every_problem_and_exits_1(
    import_cs188: click.Command, tmp_path: Path
) -> None:
    path = tmp_path / "bad.test"
    path.write_text(make_file(num_agents='num_agents: "x"', evaluation=""), encoding="utf-8")

    result = CliRunner().invoke(import_cs188, [str(path), "-o", str(tmp_path / "out")])

    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{path}:1:1: missing required key 'evaluation'",
        f"{path}:2:14: num_agents must be a whole number, at least 1, not 'x'",
    ]
    assert result.stdout == "bad.test: not imported (2 problems)\n"
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_the_command_writes_an_exercise_folder_that_loads_and_grades(
    import_cs188: click.Command, tmp_path: Path
) -> None:
    test = CASES / "q3" / "1-two-agents-depth2.test"

    result = CliRunner().invoke(import_cs188, [str(test), "-o", str(tmp_path)])

    assert result.exit_code == 0, result.output
    folder = tmp_path / "cs188-1-two-agents-depth2"
    assert sorted(path.name for path in folder.iterdir()) == [
        "1-two-agents-depth2.tree.yaml",
        "exercise.yaml",
    ]
    exercise = load_exercise(folder)
    assert (exercise.algorithm, exercise.options) == (
        "depth-limited-alphabeta",
        SearchOptions(
            prune_on_equality=False, depth_limit=4, order_judged=False, generation="generated"
        ),
    )
    assert exercise.contract == ContractChoice("cs188", "AlphaBetaAgent", 2, 2)
    [case] = exercise.trees
    assert case.tree == import_file(test).tree
    reference = exercise.reference(case)
    assert (reference.decision, generated(reference)) == ("Left", set(solution_of(test).generated))
    assert case.expect.decision == "Left"
    assert case.expect.value == reference.value
    assert set(case.expect.unvisited or ()) == {node.name for node in case.tree} - generated(
        reference
    )
    assert result.stdout.splitlines() == [
        f"1-two-agents-depth2.test -> {folder}: alphabeta (strict pruning), depth 2 x 2 agents "
        "= depth limit 4, 20 nodes, decision Left, value 3; matches the solution",
    ]
    assert result.stderr.splitlines() == [
        f"{test}:{line}:{column}: warning: unknown state {name!r} in {key}: "
        "no successor line names it (ignored)"
        for line, column, name, key in [
            (24, 18, "ghostWin", "win_states"),
            (25, 19, "nowhere", "lose_states"),
        ]
    ]


def test_the_command_imports_a_whole_test_cases_folder(
    import_cs188: click.Command, tmp_path: Path
) -> None:
    result = CliRunner().invoke(import_cs188, [str(CASES), "-o", str(tmp_path)])

    assert result.exit_code == 0, result.output
    slugs = sorted(path.name for path in tmp_path.iterdir())
    assert slugs == [
        "cs188-q2-1-two-agents-depth1",
        "cs188-q2-2-three-agents-depth2",
        "cs188-q3-1-two-agents-depth2",
        "cs188-q3-2-three-agents-depth1",
        "cs188-q4-1-two-agents-depth1",
        "cs188-q4-2-three-agents-depth2",
    ]
    lines = result.stdout.splitlines()
    skipped = "q1/grade-agent.test: skipped (class 'EvalAgentTest' is not a game-tree test)"
    assert lines[0] == skipped
    assert [line.split(" -> ")[0] for line in lines[1:7]] == [
        test.relative_to(CASES).as_posix() for test in GAME_TREE_TESTS
    ]
    assert all(line.endswith("; matches the solution") for line in lines[1:7])
    assert lines[7] == "imported 6 of 6 game-tree tests (1 other test skipped)"
    for slug, test in zip(slugs, GAME_TREE_TESTS, strict=True):
        exercise = load_exercise(tmp_path / slug)
        reference = exercise.reference(exercise.trees[0])
        solution = solution_of(test)
        assert (reference.decision, generated(reference)) == (
            solution.action,
            set(solution.generated),
        )
    expectimax = load_exercise(tmp_path / "cs188-q4-2-three-agents-depth2")
    assert expectimax.algorithm == "expectimax"
    assert expectimax.options.depth_limit == 6


def test_the_command_refuses_an_exercise_the_solution_contradicts(
    import_cs188: click.Command, tmp_path: Path
) -> None:
    source = CASES / "q2" / "1-two-agents-depth1.test"
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "t.test").write_bytes(source.read_bytes())
    (tmp_path / "in" / "t.solution").write_text(
        'action: "Left"\ngenerated: "A B C D E F G H"\n', encoding="utf-8"
    )

    result = CliRunner().invoke(import_cs188, [str(tmp_path / "in"), "-o", str(tmp_path / "out")])

    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        "t.test: not imported: the search chooses 'Right', the solution 'Left'"
    )
    assert not (tmp_path / "out" / "cs188-t").exists()


def test_the_command_does_not_overwrite_an_exercise_without_force(
    import_cs188: click.Command, tmp_path: Path
) -> None:
    test = str(CASES / "q2" / "1-two-agents-depth1.test")
    CliRunner().invoke(import_cs188, [test, "-o", str(tmp_path)])

    again = CliRunner().invoke(import_cs188, [test, "-o", str(tmp_path)])
    forced = CliRunner().invoke(import_cs188, [test, "-o", str(tmp_path), "--force"])

    assert again.exit_code == 1
    assert "already exists (--force replaces it)" in again.stdout
    assert forced.exit_code == 0


def test_two_tests_with_the_same_folder_name_do_not_overwrite_each_other(
    import_cs188: click.Command, tmp_path: Path
) -> None:
    source = (CASES / "q2" / "1-two-agents-depth1.test").read_bytes()
    (tmp_path / "in").mkdir()
    for name in ("a-b.test", "a_b.test"):
        (tmp_path / "in" / name).write_bytes(source)

    result = CliRunner().invoke(
        import_cs188, [str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--force"]
    )

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("a-b.test -> ")
    assert lines[1] == "a_b.test: not imported: its exercise folder cs188-a-b is a-b.test's"
    assert lines[2] == "imported 1 of 2 game-tree tests"


def test_the_command_refuses_a_test_of_an_unknown_agent(
    import_cs188: click.Command, tmp_path: Path
) -> None:
    path = tmp_path / "t.test"
    path.write_text(make_file('alg: "ReflexAgent"', 'depth: "1"'), encoding="utf-8")

    result = CliRunner().invoke(import_cs188, [str(path), "-o", str(tmp_path / "out")])

    assert result.exit_code == 1
    assert result.stdout == (
        "t.test: not imported: alg 'ReflexAgent' is not a game-tree agent "
        "(known: MinimaxAgent, AlphaBetaAgent, ExpectimaxAgent)\n"
    )
    assert not (tmp_path / "out").exists()


def test_the_command_rejects_a_missing_file(import_cs188: click.Command, tmp_path: Path) -> None:
    result = CliRunner().invoke(import_cs188, [str(tmp_path / "nope.test"), "-o", str(tmp_path)])

    assert result.exit_code == 2
    assert "does not exist" in result.stderr


# --- robustness ---------------------------------------------------------------------------

_fragments = st.sampled_from(
    [
        '"',
        '"""',
        ":",
        "#",
        " ",
        "\t",
        "\n",
        "\r",
        "key",
        "num_agents",
        "start_state",
        "win_states",
        "lose_states",
        "successors",
        "evaluation",
        "depth",
        "r",
        "x",
        "L",
        "1",
        "nan",
        "-2.5",
        "\ufeff",
        "é",
    ]
)


def problems_or_none(text: str) -> list[Problem] | None:
    """The problems of a text, or None when it imports."""
    try:
        import_text(text, "t.test")
    except FileProblems as error:
        return error.problems
    return None


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(_fragments, max_size=60).map("".join))
def test_any_text_imports_or_raises_located_problems(text: str) -> None:
    problems = problems_or_none(text)

    assert problems is None or problems
    assert all(p.line >= 1 and p.column >= 1 for p in problems or [])


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(min_value=0, max_value=len(make_file())), st.sampled_from(["\n", '"', "#"]))
def test_a_valid_file_with_one_character_inserted_never_crashes(at: int, inserted: str) -> None:
    text = make_file()

    problems = problems_or_none(text[:at] + inserted + text[at:])

    assert problems is None or problems
