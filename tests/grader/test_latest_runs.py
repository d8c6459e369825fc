"""Each student's latest run, read through window functions (grader.services.latest_runs),
gives every instructor page the answers the subqueries of before gave
(tests/grader/latest_before.py keeps them), on SQLite and on PostgreSQL, on a class made of
the cases that tell them apart: two attempts made at the same moment, a latest attempt not
graded yet, a regrade's uncounted preview, a confirmed regrade's run on an older attempt, a
run our fault ended (graded as an internal error, or in error), a check, a run with no
finish time, late attempts under a penalty with an extension, an override, two students of
the same name, a misconception shown again after a pass, another exercise's work."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.models import (
    Course,
    Exercise,
    Extension,
    GradeOverride,
    GradingRun,
    LatePolicy,
    Membership,
    NodeResult,
    Regrade,
    Role,
    RunState,
    Submission,
    TreeResult,
    User,
)
from grader.models.submissions import SubmissionKind
from grader.services import class_results, grades, misconceptions, roster
from grader.services.latest_runs import read_latest_runs
from tests.grader import latest_before as before
from tests.grader.conftest import Backend

SLUG = "aima-fig5.2-alphabeta"
OTHER = "aima-fig5.2-minimax"
NO_PRUNING = "alphabeta/wrong_no_pruning"
NEVER_RAISED = "alphabeta/wrong_alpha_never_updated"
MONDAY = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)
"""ISO week 47; the exercise is due on the Friday, at 23:59."""
DUE = MONDAY + timedelta(days=4, hours=14, minutes=59)
NODES = ("A", "B", "B1", "C", "C1", "C2")


@dataclass
class Built:
    exercise_id: int
    course_id: int
    regrade_id: int
    users: dict[str, int]


class Class:
    """Rows written as the service writes them, at the times a test names."""

    def __init__(self, backend: Backend, session: Session) -> None:
        self.backend, self.session = backend, session
        self.exercise = self._exercise(SLUG)
        self.other = self._exercise(OTHER)
        self.versions = {
            exercise.id: exercise.current_version_id for exercise in (self.exercise, self.other)
        }
        self.users: dict[str, int] = {}

    def _exercise(self, slug: str) -> Exercise:
        return self.session.scalars(
            select(Exercise).where(
                Exercise.course_id == self.backend.course.id, Exercise.slug == slug
            )
        ).one()

    def student(self, key: str, name: str) -> User:
        user = User(email=f"{key}-{secrets.token_hex(4)}@example.edu", name=name)
        self.session.add(user)
        self.session.flush()
        self.session.add(
            Membership(user_id=user.id, course_id=self.backend.course.id, role=Role.STUDENT)
        )
        self.users[key] = user.id
        return user

    def attempt(
        self,
        user: User,
        at: datetime,
        *,
        exercise: Exercise | None = None,
        kind: SubmissionKind = SubmissionKind.ATTEMPT,
    ) -> Submission:
        exercise = exercise or self.exercise
        taken = self.session.scalars(
            select(Submission.attempt).where(
                Submission.user_id == user.id,
                Submission.exercise_id == exercise.id,
                Submission.kind == SubmissionKind.ATTEMPT,
            )
        ).all()
        submission = Submission(
            user_id=user.id,
            exercise_id=exercise.id,
            attempt=0 if kind == SubmissionKind.CHECK else max(taken, default=0) + 1,
            kind=kind,
            filename="a.py",
            source="",
            created_at=at,
        )
        self.session.add(submission)
        self.session.flush()
        return submission

    def run(
        self,
        submission: Submission,
        verdict: str | None,
        *,
        misconception: str | None = None,
        exact: bool = True,
        score: float | None = None,
        scored: bool = True,
        state: str = RunState.GRADED,
        counted: bool = True,
        regrade_id: int | None = None,
        finished: bool = True,
    ) -> GradingRun:
        at = submission.created_at + timedelta(minutes=1)
        passed = verdict == "passed"
        run = GradingRun(
            submission_id=submission.id,
            exercise_version_id=self.versions[submission.exercise_id],
            state=state,
            queued_at=submission.created_at,
            finished_at=at if finished and state == RunState.GRADED else None,
            verdict=verdict,
            score=None if not scored else score or (100.0 if passed else 40.0),
            max_score=100.0 if verdict else None,
            counted=counted,
            regrade_id=regrade_id,
            misconception=misconception,
            misconception_exact=None if misconception is None else exact,
        )
        self.session.add(run)
        self.session.flush()
        if state == RunState.GRADED and verdict != "internal_error":
            self._trees(run, wrong=not passed)
        return run

    def _trees(self, run: GradingRun, wrong: bool) -> None:
        for position, (name, hidden) in enumerate((("fig5.2", False), ("h1", True))):
            tree = TreeResult(
                run_id=run.id,
                position=position,
                name=name,
                hidden=hidden,
                verdict="failed" if wrong else "passed",
                node_count=len(NODES),
                divergence_node=("C2" if run.misconception == NO_PRUNING else "B1")
                if wrong
                else None,
                divergence_message="went on" if wrong else None,
            )
            self.session.add(tree)
            self.session.flush()
            self.session.add_all(
                NodeResult(
                    tree_result_id=tree.id,
                    position=index,
                    node=node,
                    verdict="extra" if wrong and node == "C2" else "ok",
                )
                for index, node in enumerate(NODES)
            )


def build(backend: Backend) -> Built:
    """The class the module's docstring describes."""
    with backend.database.session() as session:
        made = Class(backend, session)
        exercise = made.exercise
        exercise.due_at = DUE
        exercise.late_policy = LatePolicy.PENALTY
        exercise.late_penalty_per_day = 10.0
        exercise.late_penalty_cap = 30.0
        regrade = Regrade(exercise_id=exercise.id, version_id=exercise.current_version_id)
        session.add(regrade)
        session.flush()

        # Two attempts at the same moment: the second (by number and id) is the latest.
        ada = made.student("ada", "Ada")
        made.run(made.attempt(ada, MONDAY), "failed", misconception=NO_PRUNING)
        made.run(made.attempt(ada, MONDAY), "failed", misconception=NEVER_RAISED, exact=False)
        # Another Ada: by name, then by id.
        ada2 = made.student("ada2", "Ada")
        made.run(made.attempt(ada2, MONDAY), "failed", misconception=NEVER_RAISED)
        # A pass, then an attempt still queued, and a check showing a misconception.
        bob = made.student("bob", "Bob")
        made.run(made.attempt(bob, MONDAY), "passed")
        made.run(made.attempt(bob, MONDAY + timedelta(days=1)), None, state=RunState.QUEUED)
        check = made.attempt(bob, MONDAY + timedelta(days=2), kind=SubmissionKind.CHECK)
        made.run(check, "failed", misconception=NEVER_RAISED)
        # A regrade's preview passes Cy's latest attempt: uncounted, it changes nothing
        # (but the regrade's own grades count it).
        cy = made.student("cy", "Cy")
        made.run(made.attempt(cy, MONDAY), "failed", misconception=NO_PRUNING)
        latest = made.attempt(cy, MONDAY + timedelta(days=1))
        made.run(latest, "failed", misconception=NO_PRUNING)
        made.run(latest, "passed", counted=False, regrade_id=regrade.id)
        # Shown, passed, shown again (not moved then), passed a week later (moved then).
        dee = made.student("dee", "Dee")
        made.run(made.attempt(dee, MONDAY), "failed", misconception=NEVER_RAISED)
        made.run(made.attempt(dee, MONDAY + timedelta(days=1)), "passed")
        made.run(
            made.attempt(dee, MONDAY + timedelta(days=2)), "failed", misconception=NEVER_RAISED
        )
        made.run(made.attempt(dee, MONDAY + timedelta(days=8)), "passed", score=90.0)
        # Our fault: an internal error graded (the latest run of the class results, no grade)
        # and one in error.
        eve = made.student("eve", "Eve")
        made.run(made.attempt(eve, MONDAY), "failed", misconception=NO_PRUNING, finished=False)
        made.run(made.attempt(eve, MONDAY + timedelta(days=1)), "internal_error", scored=False)
        made.run(
            made.attempt(eve, MONDAY + timedelta(days=2)), "internal_error", state=RunState.ERROR
        )
        # A confirmed regrade's run on Fay's first attempt is newer than her second's run.
        fay = made.student("fay", "Fay")
        first = made.attempt(fay, MONDAY)
        made.run(first, "failed", misconception=NO_PRUNING)
        made.run(
            made.attempt(fay, MONDAY + timedelta(days=1)), "failed", misconception=NEVER_RAISED
        )
        made.run(first, "passed", regrade_id=regrade.id)
        # Only a check: no figure of the class, no grade.
        gus = made.student("gus", "Gus")
        made.run(made.attempt(gus, MONDAY, kind=SubmissionKind.CHECK), "passed")
        # Late past his extension (one day, then four: the penalty's cap), an override, a
        # failed run with no score.
        hal = made.student("hal", "Hal")
        made.run(made.attempt(hal, DUE + timedelta(hours=30)), "passed", score=80.0)
        made.run(made.attempt(hal, DUE + timedelta(days=5)), "failed", scored=False)
        session.add(
            Extension(exercise_id=exercise.id, user_id=hal.id, due_at=DUE + timedelta(days=1))
        )
        session.add(
            GradeOverride(
                exercise_id=exercise.id, user_id=hal.id, score=95.0, max_score=100.0, comment="ok"
            )
        )
        # An attempt never graded at all, and an enrolled student who never tried.
        ivy = made.student("ivy", "Ivy")
        made.run(made.attempt(ivy, DUE - timedelta(hours=1)), None, state=RunState.RUNNING)
        made.student("jo", "Jo")
        # Another exercise's work counts on its own page alone.
        kim = made.student("kim", "Kim")
        made.run(made.attempt(kim, MONDAY, exercise=made.other), "failed", misconception=NO_PRUNING)
        made.run(made.attempt(ada, MONDAY, exercise=made.other), "passed")
        return Built(exercise.id, backend.course.id, regrade.id, made.users)


@pytest.fixture
def built(backend: Backend) -> Built:
    return build(backend)


def exercise_of(session: Session, built: Built) -> Exercise:
    found = session.get(Exercise, built.exercise_id)
    assert found is not None
    return found


def test_the_class_results_are_those_of_before(backend: Backend, built: Built) -> None:
    with backend.database.session() as session:
        exercise = exercise_of(session, built)
        latest = read_latest_runs(session, exercise)

        assert sorted(session.scalars(class_results.latest_run_ids(exercise))) == sorted(
            session.scalars(before.latest_run_ids(exercise))
        )
        assert class_results.students_graded(session, exercise, latest) == (
            before.students_graded(session, exercise)
        )
        assert class_results.heat_maps(session, exercise, latest) == before.heat_maps(
            session, exercise
        )
        assert class_results.verdict_distribution(session, exercise, latest) == (
            before.verdict_distribution(session, exercise)
        )
        assert class_results.score_histogram(session, exercise, latest=latest) == (
            before.score_histogram(session, exercise)
        )
        assert class_results.common_divergences(session, exercise, latest=latest) == (
            before.common_divergences(session, exercise)
        )
        # The cases themselves: Eve's internal error is her latest graded run, Fay's
        # confirmed regrade hers; Bob's queued attempt and Gus's check are nobody's.
        by_user = {run.user_id: run for run in latest}
        assert by_user[built.users["eve"]].verdict == "internal_error"
        assert by_user[built.users["fay"]].verdict == "passed"
        assert by_user[built.users["bob"]].verdict == "passed"
        assert built.users["gus"] not in by_user and built.users["ivy"] not in by_user
        assert class_results.students_graded(session, exercise) == 8


def test_the_misconceptions_are_those_of_before(backend: Backend, built: Built) -> None:
    with backend.database.session() as session:
        exercise = exercise_of(session, built)

        assert misconceptions.students_now(session, exercise) == before.students_now(
            session, exercise
        )
        assert misconceptions.latest_names(session, exercise) == before.latest_names(
            session, exercise
        )
        assert misconceptions.outcomes(session, exercise) == before.outcomes(session, exercise)
        assert misconceptions.trajectories(session, exercise) == before.trajectories(
            session, exercise
        )
        for name in (NO_PRUNING, NEVER_RAISED, "alphabeta/never_shown"):
            assert misconceptions.students_now(session, exercise, name) == before.students_now(
                session, exercise, name
            )
            assert misconceptions.trajectories(session, exercise, name) == before.trajectories(
                session, exercise, name
            )
        # The cases themselves: the two Adas by id; Dee moved the second time she passed.
        ada, ada2 = built.users["ada"], built.users["ada2"]
        shown = misconceptions.students_now(session, exercise)
        assert [student.user_id for student in shown[NEVER_RAISED]] == [ada, ada2]
        raised = misconceptions.trajectories(session, exercise)[NEVER_RAISED]
        assert [(moved.name, moved.passed_at.day) for moved in raised.moved] == [
            ("Dee", 24),
            ("Fay", 16),
        ]


@pytest.mark.parametrize("regrade", [False, True])
def test_the_grades_are_those_of_before(backend: Backend, built: Built, regrade: bool) -> None:
    with backend.database.session() as session:
        exercise = exercise_of(session, built)
        regrade_id = built.regrade_id if regrade else None
        some = [built.users[key] for key in ("cy", "eve", "hal", "jo")]

        assert grades.student_grades(session, exercise, regrade_id=regrade_id) == (
            before.student_grades(session, exercise, regrade_id=regrade_id)
        )
        assert grades.student_grades(session, exercise, some, regrade_id=regrade_id) == (
            before.student_grades(session, exercise, some, regrade_id=regrade_id)
        )
        # The cases themselves: the preview counts for the regrade alone; Eve's runs that
        # ended through our fault grade nothing; Hal's override stands over his late pass.
        cy = grades.student_grades(session, exercise, regrade_id=regrade_id)[built.users["cy"]]
        assert cy.score == (100.0 if regrade else 40.0)
        eve = grades.student_grade(session, exercise, built.users["eve"])
        assert [attempt.graded for attempt in eve.attempts] == [True, False, False]
        hal = grades.student_grade(session, exercise, built.users["hal"])
        assert (hal.score, hal.best and hal.best.score) == (95.0, 72.0)


def test_the_roster_is_that_of_before(backend: Backend, built: Built) -> None:
    with backend.database.session() as session:
        course = session.get(Course, built.course_id)
        assert course is not None
        rows = roster.roster(session, course)

        then = before.roster_activity(session, course)
        assert {
            row.user.id: (row.last_activity, row.exercises_attempted)
            for row in rows
            if row.exercises_attempted
        } == then
        assert then[built.users["ada"]][1] == 2
