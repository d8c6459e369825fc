"""Each grading's draw of hidden trees (worker.trees): a draw of its own, ready before it
starts when the process has graded the exercise before, its name kept with the run; a
regrade of the same submission against the same version is judged on the same trees."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from grader.models import Exercise, ExerciseVersion, GradingRun, Submission
from grader.models.submissions import Lane, SubmissionKind
from grader.services.submissions import submit
from reference.caching import IdentityCache
from reference.report import RunVerdict
from tests.grader.conftest import Backend
from tests.grader.test_retries import CORRECT, SLUG, submitted
from worker import execute as execute_module
from worker import trees as trees_module
from worker.execute import execute_run
from worker.trees import STOCK_SIZE, Draw, Prepared


class Spy:
    """What ``grade`` was given as its draw, and the draws made on the way."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.given: list[str | Draw] = []
        self.made: list[str] = []
        real_grade, real_draw = execute_module.grade, Prepared.draw

        def grade(*args: Any, **kwargs: Any) -> Any:
            self.given.append(kwargs["draw"])
            return real_grade(*args, **kwargs)

        def draw(prepared: Prepared, name: str) -> Draw:
            self.made.append(name)
            return real_draw(prepared, name)

        monkeypatch.setattr(execute_module, "grade", grade)
        monkeypatch.setattr(Prepared, "draw", draw)
        # No draw of an earlier test is ready: this process has graded nothing yet.
        monkeypatch.setattr(trees_module, "_prepared", IdentityCache(trees_module.CASES_CACHE_SIZE))

    @property
    def names(self) -> list[str]:
        return [given.name if isinstance(given, Draw) else given for given in self.given]


def _graded(backend: Backend, run_id: int) -> GradingRun:
    execute_run(backend.database, backend.settings, run_id, worker="w", task_id=f"t{run_id}")
    with backend.database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None and run.verdict == RunVerdict.PASSED, run and run.message
        session.expunge(run)
        return run


def _again(backend: Backend, submission_id: int) -> int:
    """A regrade's run of ``submission_id`` against the same (current) version."""
    with backend.database.session() as session:
        submission = session.get(Submission, submission_id)
        assert submission is not None
        exercise = session.get(Exercise, submission.exercise_id)
        assert exercise is not None and exercise.current_version_id is not None
        run = GradingRun(
            submission_id=submission_id,
            exercise_version_id=exercise.current_version_id,
            lane=Lane.SLOW,
            counted=False,
        )
        session.add(run)
        session.flush()
        return run.id


def _prefix(backend: Backend, run: GradingRun) -> str:
    with backend.database.session() as session:
        version = session.get(ExerciseVersion, run.exercise_version_id)
        assert version is not None
        return f"version-{version.content_hash}/draw-"


def test_each_grading_takes_a_draw_of_its_own_ready_after_the_first(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(monkeypatch)
    runs = [_graded(backend, submitted(backend)[1]) for _ in range(3)]
    names = [run.draw for run in runs]
    assert all(name and name.startswith(_prefix(backend, runs[0])) for name in names)
    assert len(set(names)) == 3 and spy.names == names
    # The first grading made its draw on the way, then the next ones ready; every later
    # grading took a ready one and made one after its result was stored.
    assert spy.made[0] == names[0]
    assert [isinstance(given, Draw) for given in spy.given] == [True, True, True]
    assert spy.made[1 : 1 + STOCK_SIZE] != [] and names[1] in spy.made[1 : 1 + STOCK_SIZE]
    assert len(spy.made) == 1 + STOCK_SIZE + 2


def test_a_regrade_of_the_same_submission_is_judged_on_the_same_trees(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(monkeypatch)
    submission_id, run_id = submitted(backend)
    first = _graded(backend, run_id)
    again = _graded(backend, _again(backend, submission_id))
    other = _graded(backend, submitted(backend)[1])
    assert again.draw == first.draw and other.draw != first.draw
    assert spy.names == [first.draw, first.draw, other.draw]
    assert spy.given[1] == first.draw  # made again from its name, not taken ready


def test_a_run_graded_before_draws_were_named_is_regraded_on_its_old_draw(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(monkeypatch)
    submission_id, run_id = submitted(backend)
    first = _graded(backend, run_id)
    with backend.database.session() as session:
        old = session.get(GradingRun, first.id)
        assert old is not None
        old.draw = None
        hash_ = old.version.content_hash
    again = _graded(backend, _again(backend, submission_id))
    assert again.draw == spy.names[-1] == f"version-{hash_}/submission-{submission_id}"


def test_a_check_of_a_draft_takes_no_draw(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(monkeypatch)
    student = backend.user()
    with backend.database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == backend.course.id, Exercise.slug == SLUG)
        ).one()
        check = submit(
            session, backend.settings, student, exercise, "a.py", CORRECT,
            kind=SubmissionKind.CHECK,
        )  # fmt: skip
        run_id = session.scalars(
            select(GradingRun.id).where(GradingRun.submission_id == check.id)
        ).one()
    run = _graded(backend, run_id)
    assert run.draw is None and spy.given == [""] and spy.made == []
