"""A student's own work as their pages list it: their results on each exercise (the home
page), their latest attempts at one, and each attempt's score after the late policy."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import defer, joinedload, selectinload

from grader.models import Exercise, GradeOverride, GradingRun, Submission
from grader.models.submissions import SubmissionKind
from grader.services.grades import AttemptScore, grades_of_student, student_grade
from grader.web.context import db_session


@dataclass
class ExerciseResults:
    """A student's results on one exercise."""

    attempts: int = 0
    best: float | None = None
    max_score: float | None = None
    latest: str | None = None
    overridden: bool = False


def standings(user_id: int, exercises: list[Exercise]) -> dict[int, ExerciseResults]:
    """The student's results on each of ``exercises`` they attempted or were graded on:
    their attempts, best score (after the late policy where a due date applies), latest
    verdict (the home page's list), in a fixed number of statements."""
    exercise_ids = [exercise.id for exercise in exercises]
    submissions = db_session().scalars(
        select(Submission)
        .where(
            Submission.user_id == user_id,
            Submission.exercise_id.in_(exercise_ids),
            Submission.kind == SubmissionKind.ATTEMPT,
        )
        .order_by(Submission.id)
        .options(selectinload(Submission.runs))
    )
    found: dict[int, ExerciseResults] = {}
    for submission in submissions:
        standing = found.setdefault(submission.exercise_id, ExerciseResults())
        standing.attempts += 1
        run = submission.latest_run
        if run is None:
            continue
        standing.latest = run.verdict or run.state
        if run.score is not None and (standing.best is None or run.score > standing.best):
            standing.best, standing.max_score = run.score, run.max_score
    # An instructor's grade is the grade while it stands.
    for override in db_session().scalars(
        select(GradeOverride).where(
            GradeOverride.user_id == user_id, GradeOverride.exercise_id.in_(exercise_ids)
        )
    ):
        standing = found.setdefault(override.exercise_id, ExerciseResults())
        standing.best, standing.max_score = override.score, override.max_score
        standing.overridden = True
    dated = [
        exercise for exercise in exercises if exercise.id in found and exercise.due_at is not None
    ]
    for exercise_id, grade in grades_of_student(db_session(), dated, user_id).items():
        found[exercise_id].best, found[exercise_id].max_score = grade.score, grade.max_score
    return found


ATTEMPTS_SHOWN = 20
"""Earlier attempts listed on a page, the most recent first (each keeps its number)."""


def attempts(user_id: int, exercise_id: int) -> list[Submission]:
    # In one statement, without the sources and reports the list does not show.
    return list(
        db_session()
        .scalars(
            select(Submission)
            .where(
                Submission.user_id == user_id,
                Submission.exercise_id == exercise_id,
                Submission.kind == SubmissionKind.ATTEMPT,
            )
            .order_by(Submission.id.desc())
            .limit(ATTEMPTS_SHOWN)
            .options(
                defer(Submission.source),
                joinedload(Submission.runs).load_only(
                    GradingRun.state,
                    GradingRun.verdict,
                    GradingRun.score,
                    GradingRun.max_score,
                    GradingRun.counted,
                ),
            )
        )
        .unique()
    )


def scores(exercise: Exercise, user_id: int) -> dict[int, AttemptScore]:
    """Each attempt's score after the late policy, by submission id."""
    grade = student_grade(db_session(), exercise, user_id)
    return {attempt.submission_id: attempt for attempt in grade.attempts}
