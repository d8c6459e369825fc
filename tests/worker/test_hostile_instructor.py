"""What an exercise's author could ask of the workers every course shares, and what a search
tuned to the shapes of the public trees would get away with: a search that looks at a
fixed number of moves fails every draw; an instructor's added implementation that sleeps
once checked costs the grading no more than its course's budget, and nothing in the fast
lane."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path
from types import ModuleType

import pytest
from sqlalchemy import update

from grader.config import Settings
from grader.db import Database
from grader.models import AddedImplementation, Course, Role
from grader.services.exercise_store import load_version
from reference.budgets import policy_problems
from reference.exercises import load_catalog
from reference.hidden import DEVELOPMENT_KEY, LIBRARY_FOLDER
from reference.hidden.generate import wide_width
from reference.report import Report
from reference.reporting.cases import hidden_reasons
from tests.grader.conftest import UserFactory
from tests.worker.added_sources import MIN_NEVER_PRUNES
from tests.worker.test_added_check import added
from tests.worker.test_added_suspects import current
from worker.added_check import check_added
from worker.added_suspects import AddedBudget, added_suspects
from worker.grading import grade

pytestmark = pytest.mark.slow

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
CATALOG = load_catalog(EXERCISES)
LIBRARY = EXERCISES / LIBRARY_FOLDER


def first_moves_only(source: str, moves: int) -> str:
    """``source`` with every ``game.actions(state)`` cut to its first ``moves`` moves."""
    cut = source.replace("game.actions(state)", f"list(game.actions(state))[:{moves}]")
    assert cut != source
    return cut


@pytest.mark.parametrize(
    ("slug", "correct"),
    [
        ("aima-fig5.2-alphabeta", "alphabeta/correct_fail_soft.py"),
        ("aima-fig5.2-minimax", "minimax/correct_plain.py"),
        ("tictactoe-depth2-heuristic", "depth-limited/correct_countdown.py"),
    ],
)
def test_a_search_that_looks_at_a_fixed_number_of_moves_fails_every_draw(
    slug: str, correct: str
) -> None:
    exercise = CATALOG.get(slug)
    source = (LIBRARY / correct).read_text(encoding="utf-8")
    widest_public = max(len(node.edges) for entry in exercise.trees for node in entry.tree)
    # As many moves as any public node has, and as max_branching allows: it passes every
    # public tree, and before the wide node, most draws' hidden trees too.
    moves = max(widest_public, exercise.hidden.max_branching)
    assert wide_width(exercise) == moves + 1
    for draw in ("draw-1", "draw-2", "draw-3"):
        kept = grade(exercise, source, "mine.py", key=DEVELOPMENT_KEY, exercises_dir=EXERCISES,
                     draw=draw, diagnose=False)  # fmt: skip
        assert kept.score == 100, kept.message
        cut = grade(
            exercise,
            first_moves_only(source, moves),
            "mine.py",
            key=DEVELOPMENT_KEY,
            exercises_dir=EXERCISES,
            draw=draw,
            diagnose=False,
        )
        public = [case for case in cut.cases if not case.hidden]
        hidden = [case for case in cut.cases if case.hidden]
        assert all(case.verdict == "passed" for case in public)
        # Every hidden tree has a node it does not search all of.
        assert all(case.verdict == "failed" for case in hidden), draw
        # It searched other nodes than the reference's (or, where a move it skipped mattered,
        # got the root's value wrong): of the hidden half, it earns at most the value part.
        assert {case.message for case in hidden} <= set(hidden_reasons(exercise)[:2])
        assert cut.score <= 50 + 0.5 * exercise.scoring.value


SLEEPER = """\
import time


def max_value(game, state, alpha, beta):
    time.sleep(60)


def min_value(game, state, alpha, beta):
    time.sleep(60)
"""
"""What an added implementation that searched like a known mistake while it was checked
does afterwards, on every tree it is run on."""


def time_bomb(database: Database, course: Course, author: object, settings: Settings) -> int:
    """An added implementation checked as "MIN nodes never prune", then turned into the
    sleeper (as one that knows when it is checked would behave)."""
    added_id = added(database, course, author, MIN_NEVER_PRUNES, "time_bomb")  # type: ignore[arg-type]
    check_added(database, settings, added_id)
    with database.session() as session:
        session.execute(
            update(AddedImplementation)
            .where(AddedImplementation.id == added_id)
            .values(source=SLEEPER)
        )
    return added_id


def graded_beside_a_time_bomb(
    database: Database, settings: Settings, course: Course, author: object, budget: AddedBudget
) -> tuple[Report, float]:
    """A student's search that is the mistake the time bomb was checked as, graded with it
    as a suspect paid from ``budget``; the report, and the grading's real time."""
    time_bomb(database, course, author, settings)
    exercise, version = current(settings, database, course)
    model = load_version(settings, exercise.slug, version)
    with database.session() as session:
        suspects = added_suspects(session, exercise, version, model, budget=budget)
    assert [suspect.name for suspect in suspects] == ["added/time_bomb"]
    began = time.perf_counter()
    report = grade(
        model,
        MIN_NEVER_PRUNES,
        "student.py",
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
        draw="a student's draw",
        added=suspects,
    )
    return report, time.perf_counter() - began


def test_a_time_bomb_costs_a_slow_lane_grading_its_course_s_budget_only(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    budget = AddedBudget(1.0)
    report, took = graded_beside_a_time_bomb(
        database, settings, course, make_user(Role.INSTRUCTOR, course), budget
    )

    # It slept on the first fresh tree until the budget ran out; then it was left out.
    assert 0.9 <= budget.spent < 2.0, budget.spent
    assert budget.left_out == ["time_bomb.py"]
    # An exercise's own limits would give it 10 s on each fresh tree it is run on (several);
    # the real time also holds the grading itself, which a busy machine slows down.
    assert took < 20.0
    diagnosis = report.diagnosis
    assert diagnosis is not None and not diagnosis.exact
    assert all("added/time_bomb" not in found.implementations for found in diagnosis.misconceptions)


def test_in_the_fast_lane_no_added_implementation_runs(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    budget = AddedBudget(0.0)  # the fast lane's
    _, took = graded_beside_a_time_bomb(
        database, settings, course, make_user(Role.INSTRUCTOR, course), budget
    )

    # The diagnosis wanted it on a fresh tree: the grading is marked for the slow lane,
    # and nothing of the sleeper ran here.
    assert budget.wanted and budget.spent == 0.0
    assert took < 10.0


def _bench() -> ModuleType:
    """``bench/budgets.py``, whose child process the test runs as the bench does."""
    path = EXERCISES.parent / "bench" / "budgets.py"
    spec = importlib.util.spec_from_file_location("bench_budgets", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "policy",
    [
        {"count": 12, "max_depth": 12, "max_branching": 2},
        {"count": 10, "max_depth": 5, "max_branching": 6},
        {"count": 21, "max_depth": 4, "max_branching": 8},
    ],
    ids=["deepest", "widest-at-depth-5", "widest"],
)
def test_the_largest_policies_the_budgets_accept_cost_a_worker_little(
    policy: dict[str, int],
) -> None:
    # A fresh process builds the pool and one draw, as a worker's first grading does; its
    # CPU time (not the clock: the machine may be busy) and peak memory are bounded.
    assert not policy_problems(policy["count"], policy["max_depth"], policy["max_branching"])
    bench = _bench()
    floor = bench.measure(None)["rss"]  # a process that only imports the worker's modules
    facts = bench.measure(policy)
    # Measured: 0.13 to 0.32 s and 2 to 9 MB over the floor (a shipped exercise: 0.09 s,
    # 1 MB); without the trusted runs' call limit the deepest took 1.1 s and 54 MB.
    assert facts["cpu"] < 1.0, facts
    assert facts["rss"] - floor < 40, (facts, floor)
    assert facts["cut_short"] is None or "budget" in facts["cut_short"]
