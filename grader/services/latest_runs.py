"""Each student's latest run of an exercise, read the same way whatever the database's
statistics.

The instructor pages read each student's latest counted graded run of an exercise (class
results, misconceptions, the grade book's misconception column: :func:`read_latest_runs`,
once per page, its rows handed to each figure) or each attempt's (the grades:
:func:`grader.services.grades.student_grades`). Both are one pass over the exercise's
attempts, the only rows a condition picks (through ``ix_submissions_exercise_attempts``),
joined to all of their runs through the runs' index of their submission, and numbered by a
window function (``ROW_NUMBER() OVER (PARTITION BY the student, or the attempt, ORDER BY
counts DESC, id DESC)``). Whether a run counts is a column of that pass (:func:`counting`),
never a condition on the runs.

Why: PostgreSQL plans from statistics, which a class filling up during a deadline rush does
not have yet (autovacuum behind). Without them it takes each condition to keep 0.5 % of a
table's rows, and a plan right for that is quadratic in the class:

- a subquery of each student's highest run id looks like one row: it was joined back to the
  runs by a nested loop rescanning it for each of them (the misconceptions: 1.5 s of the
  page at 1,000 students, 6.6 ms once analysed);
- ``state = 'graded'`` looks selective: the index of the runs' states was read in full for
  each attempt (AND-ed with the submission's index, or scanned and filtered by the join).

With no condition on the runs, reaching an attempt's runs costs a scan of them all unless it
goes through their submission's index, whatever the estimates: every plan PostgreSQL picks
reads each run a bounded number of times. ``tests/grader/test_latest_run_plans.py`` checks
the plans of every instructor page on a class that was never analysed.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, Subquery, case, func, select
from sqlalchemy.orm import Session

from grader.models import Exercise, GradingRun, RunState, Submission, User
from grader.models.submissions import SubmissionKind


def counting(counted: ColumnElement[bool] | None = None) -> ColumnElement[int]:
    """1 for a graded run that is ``counted`` (by default: ``grading_runs.counted``), else
    0: a column of a pass over the runs, not a condition on them."""
    if counted is None:
        counted = GradingRun.counted.is_(True)
    return case(((GradingRun.state == RunState.GRADED) & counted, 1), else_=0)


def latest_runs(exercise: Exercise) -> Subquery:
    """Each student's latest counted graded run of an attempt on ``exercise`` (their highest
    run id; checks count towards nothing), one row per student who has one: ``run_id``,
    ``user_id``, ``submission_id`` and the run's verdict, scores and misconception columns."""
    counts = counting()
    ranked = (
        select(
            GradingRun.id.label("run_id"),
            Submission.user_id,
            GradingRun.submission_id,
            GradingRun.verdict,
            GradingRun.score,
            GradingRun.max_score,
            GradingRun.misconception,
            GradingRun.misconception_exact,
            counts.label("counts"),
            func.row_number()
            .over(partition_by=Submission.user_id, order_by=(counts.desc(), GradingRun.id.desc()))
            .label("newest"),
        )
        .select_from(Submission)
        .join(GradingRun, GradingRun.submission_id == Submission.id)
        .where(Submission.exercise_id == exercise.id, Submission.kind == SubmissionKind.ATTEMPT)
        .subquery("ranked")
    )
    return (
        select(*(column for column in ranked.c if column.name not in {"counts", "newest"}))
        .where(ranked.c.newest == 1, ranked.c.counts == 1)
        .subquery("latest")
    )


@dataclass(frozen=True, slots=True)
class LatestRun:
    """A student's latest counted graded run of an exercise (:func:`latest_runs`)."""

    run_id: int
    user_id: int
    name: str
    email: str
    """The student's contact address (:attr:`grader.models.User.contact_email`)."""
    submission_id: int
    verdict: str | None
    score: float | None
    max_score: float | None
    misconception: str | None
    """Its diagnosis's nearest misconception (its library name); None: none."""
    exact: bool
    """The misconception matched the search on every tree."""


def read_latest_runs(
    session: Session, exercise: Exercise, misconception: str | None = None
) -> list[LatestRun]:
    """Each student's latest counted graded run on ``exercise`` (those that show
    ``misconception`` only, when given), by misconception (None last or first, as the
    database sorts it), then the student's name and id: one statement, which a page reads
    once and hands to each of its figures."""
    latest = latest_runs(exercise)
    query = (
        select(
            latest.c.run_id,
            latest.c.user_id,
            User.name,
            contact_email(),
            latest.c.submission_id,
            latest.c.verdict,
            latest.c.score,
            latest.c.max_score,
            latest.c.misconception,
            latest.c.misconception_exact,
        )
        .join(User, User.id == latest.c.user_id)
        .order_by(latest.c.misconception, User.name, User.id)
    )
    if misconception is not None:
        query = query.where(latest.c.misconception == misconception)
    return [
        LatestRun(
            run_id, user_id, name, email, submission_id, verdict, score, top, found, bool(exact)
        )
        for run_id, user_id, name, email, submission_id, verdict, score, top, found, exact in (
            session.execute(query)
        )
    ]


def contact_email() -> ColumnElement[str]:
    """:attr:`grader.models.User.contact_email` in SQL: the address an LMS gave for an
    account it made (whose own address is a placeholder), else the account's."""
    return case(
        (
            (User.lms_email.is_not(None))
            & (User.lms_email != "")
            & User.email.endswith(".invalid"),
            User.lms_email,
        ),
        else_=User.email,
    )
