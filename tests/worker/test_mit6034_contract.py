"""The MIT 6.034 contract: the games lab's file graded as written, in the sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference.exercises.loader import load_exercise
from reference.report import Report
from worker.grading import grade
from worker.sandbox import SandboxOptions

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
LAB = Path(__file__).parent / "data" / "mit6034"
KEY = b"mit-6.034-contract-test-key-32by"
MINIMAX = load_exercise(EXERCISES / "mit6034-toy-minimax")
ALPHABETA = load_exercise(EXERCISES / "mit6034-toy-alphabeta")


def report(exercise_slug: str, lab_file: str, *, public_only: bool = False) -> Report:
    exercise = MINIMAX if exercise_slug == "minimax" else ALPHABETA
    source = (LAB / f"{lab_file}.py").read_text()
    return grade(
        exercise,
        source,
        "lab3.py",
        key=KEY,
        exercises_dir=EXERCISES,
        options=SandboxOptions(),
        draw="d",
        public_only=public_only,
    )


@pytest.mark.parametrize("exercise", ["minimax", "alphabeta"])
def test_the_labs_functions_as_written_pass_every_tree(exercise: str) -> None:
    graded = report(exercise, "correct_lab")
    assert graded.verdict.value == "passed", graded.message
    public = graded.cases[0]
    assert public.value is not None and public.value.actual == public.value.expected
    assert public.decision is not None and public.decision.actual == public.decision.expected
    assert len(graded.cases) > 1 and all(case.verdict.value == "passed" for case in graded.cases)


def test_a_miscount_of_static_evaluations_is_told_with_both_counts() -> None:
    graded = report("alphabeta", "wrong_uncounted_heuristic", public_only=True)
    public = graded.cases[0]
    assert public.verdict.value == "failed"
    divergence = public.first_divergence
    assert divergence is not None and divergence.node == "A"
    assert "says it made 1 static evaluation; the search makes 4" in divergence.message
    # The score and the move were right: only the count is told wrong.
    assert public.value is not None and public.value.actual == public.value.expected
    assert public.decision is not None and public.decision.actual == public.decision.expected


def test_a_miscount_on_a_hidden_tree_is_told_as_one() -> None:
    graded = report("alphabeta", "wrong_uncounted_heuristic")
    hidden = [case for case in graded.cases if case.hidden and case.verdict.value == "failed"]
    assert hidden
    assert {case.message for case in hidden} == {"wrong count of static evaluations"}


def test_the_labs_functions_are_judged_node_by_node() -> None:
    right = report("minimax", "correct_lab", public_only=True)
    assert {node.verdict.value for node in right.cases[0].nodes or ()} == {"ok"}
    wrong = report("minimax", "wrong_always_maximize", public_only=True)
    verdicts = {node.node: node.verdict.value for node in wrong.cases[0].nodes or ()}
    assert verdicts["B"] == "wrong_value" and verdicts["C"] == "wrong_value"


def test_an_alphabeta_that_never_prunes_is_told_where_it_should_have() -> None:
    graded = report("alphabeta", "wrong_no_pruning", public_only=True)
    verdicts = {node.node: node.verdict.value for node in graded.cases[0].nodes or ()}
    assert verdicts["C2"] == "extra" and verdicts["D2"] == "extra"


def test_a_search_that_always_maximizes_gets_the_wrong_value() -> None:
    graded = report("minimax", "wrong_always_maximize", public_only=True)
    public = graded.cases[0]
    assert public.verdict.value == "failed"
    assert public.value is not None and public.value.actual != public.value.expected


def test_a_file_without_the_labs_function_is_told_which_one() -> None:
    exercise = ALPHABETA
    source = "from game_api import *\n\ndef minimax_search(state):\n    return 0\n"
    graded = grade(
        exercise,
        source,
        "lab3.py",
        key=KEY,
        exercises_dir=EXERCISES,
        options=SandboxOptions(),
        public_only=True,
    )
    assert graded.verdict.value == "runtime_error"
    assert "missing the lab's function minimax_search_alphabeta()" in graded.message
    assert "minimax_search()" in graded.message


def test_an_answer_that_is_not_a_triple_is_told_in_the_labs_words() -> None:
    source = (
        "from game_api import *\n\n"
        "def minimax_endgame_search(state, maximize=True):\n    return 5\n"
    )
    graded = grade(
        MINIMAX,
        source,
        "lab3.py",
        key=KEY,
        exercises_dir=EXERCISES,
        options=SandboxOptions(),
        public_only=True,
    )
    assert graded.verdict.value == "runtime_error"
    assert "(path, score, number of evaluations)" in graded.message
