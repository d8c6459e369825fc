"""The instructor pages' queries of each student's latest run as they were at commit
4d2a374, before they were read through a window function (grader.services.latest_runs):
kept as the reference the new ones must agree with (tests/grader/test_latest_runs.py).

A subquery of each student's highest run id, joined back to the runs: right, but planned
quadratically by PostgreSQL without statistics. Copied as they were, bar their names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import ColumnElement, Select, case, distinct, func, select
from sqlalchemy.orm import Session, aliased

from grader.models import (
    Course,
    Exercise,
    Extension,
    GradeOverride,
    GradingRun,
    Membership,
    NodeResult,
    Role,
    RunState,
    Submission,
    TreeResult,
    User,
)
from grader.models.base import aware
from grader.models.submissions import SubmissionKind
from grader.services.class_results import BUCKETS, Bucket, Divergence, NodeHeat, TreeHeat
from grader.services.grades import AttemptScore, StudentGrade, deadline
from grader.services.misconceptions import (
    Outcomes,
    StudentMoved,
    StudentNow,
    Trajectory,
    Week,
)
from reference.report import RunVerdict

# grader.services.class_results


def latest_run_ids(exercise: Exercise) -> Select[tuple[int]]:
    return (
        select(func.max(GradingRun.id))
        .join(Submission, GradingRun.submission_id == Submission.id)
        .where(
            Submission.exercise_id == exercise.id,
            Submission.kind == SubmissionKind.ATTEMPT,
            GradingRun.state == RunState.GRADED,
            GradingRun.counted.is_(True),
        )
        .group_by(Submission.user_id)
    )


def students_graded(session: Session, exercise: Exercise) -> int:
    subquery = latest_run_ids(exercise).subquery()
    return session.scalar(select(func.count()).select_from(subquery)) or 0


def _public_trees(exercise: Exercise) -> list[ColumnElement[bool]]:
    return [TreeResult.run_id.in_(latest_run_ids(exercise)), TreeResult.hidden.is_(False)]


def heat_maps(session: Session, exercise: Exercise) -> list[TreeHeat]:
    where = _public_trees(exercise)
    trees = session.execute(
        select(
            TreeResult.name,
            func.sum(case((TreeResult.node_count > 0, 1), else_=0)),
        )
        .where(*where)
        .group_by(TreeResult.name)
        .order_by(func.min(TreeResult.position), TreeResult.name)
    ).all()
    heats = {name: TreeHeat(name, int(students or 0)) for name, students in trees}
    counted = session.execute(
        select(TreeResult.name, NodeResult.node, NodeResult.verdict, func.count())
        .join(TreeResult, NodeResult.tree_result_id == TreeResult.id)
        .where(*where)
        .group_by(TreeResult.name, NodeResult.node, NodeResult.verdict)
        .order_by(func.min(NodeResult.position), NodeResult.node)
    ).all()
    for tree, node, verdict, count in counted:
        heat = heats[tree]
        entry = heat.nodes.setdefault(node, NodeHeat(node, heat.students))
        entry.verdicts[verdict] += count
    return list(heats.values())


def verdict_distribution(session: Session, exercise: Exercise) -> list[tuple[str, int]]:
    rows = session.execute(
        select(GradingRun.verdict, func.count())
        .where(GradingRun.id.in_(latest_run_ids(exercise)))
        .group_by(GradingRun.verdict)
    ).all()
    counts = Counter({verdict or "none": count for verdict, count in rows})
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def score_histogram(session: Session, exercise: Exercise, buckets: int = BUCKETS) -> list[Bucket]:
    counts = [0] * buckets
    scores = session.execute(
        select(GradingRun.score, GradingRun.max_score).where(
            GradingRun.id.in_(latest_run_ids(exercise)),
            GradingRun.score.is_not(None),
            GradingRun.max_score > 0,
        )
    ).all()
    for score, max_score in scores:
        if score is None or not max_score:
            continue
        share = max(0.0, min(1.0, score / max_score))
        counts[min(int(share * buckets), buckets - 1)] += 1
    width = 100 // buckets
    return [
        Bucket(index * width, 100 if index == buckets - 1 else (index + 1) * width, count)
        for index, count in enumerate(counts)
    ]


def common_divergences(session: Session, exercise: Exercise, top: int = 10) -> list[Divergence]:
    count = func.count()
    rows = session.execute(
        select(
            TreeResult.name,
            TreeResult.divergence_node,
            TreeResult.divergence_message,
            count,
        )
        .where(*_public_trees(exercise), TreeResult.divergence_node.is_not(None))
        .group_by(TreeResult.name, TreeResult.divergence_node, TreeResult.divergence_message)
        .order_by(
            count.desc(),
            TreeResult.name,
            TreeResult.divergence_node,
            TreeResult.divergence_message,
        )
        .limit(top)
    ).all()
    return [Divergence(tree, node or "", message or "", n) for tree, node, message, n in rows]


# grader.services.misconceptions


def _counted() -> list[ColumnElement[bool]]:
    return [
        Submission.kind == SubmissionKind.ATTEMPT,
        GradingRun.state == RunState.GRADED,
        GradingRun.counted.is_(True),
    ]


def _contact_email() -> ColumnElement[str]:
    return case(
        (
            (User.lms_email.is_not(None))
            & (User.lms_email != "")
            & User.email.endswith(".invalid"),
            User.lms_email,
        ),
        else_=User.email,
    )


def students_now(
    session: Session, exercise: Exercise, implementation: str | None = None
) -> dict[str, list[StudentNow]]:
    query = (
        select(
            GradingRun.misconception,
            User.id,
            User.name,
            _contact_email(),
            Submission.id,
            GradingRun.misconception_exact,
        )
        .join(Submission, GradingRun.submission_id == Submission.id)
        .join(User, Submission.user_id == User.id)
        .where(GradingRun.id.in_(latest_run_ids(exercise)), GradingRun.misconception.is_not(None))
        .order_by(GradingRun.misconception, User.name, User.id)
    )
    if implementation is not None:
        query = query.where(GradingRun.misconception == implementation)
    found: dict[str, list[StudentNow]] = {}
    for name, user_id, user_name, email, submission_id, exact in session.execute(query):
        found.setdefault(name or "", []).append(
            StudentNow(user_id, user_name, email, submission_id, bool(exact))
        )
    return found


def latest_names(session: Session, exercise: Exercise) -> dict[int, str]:
    rows = session.execute(
        select(Submission.user_id, GradingRun.misconception)
        .join(Submission, GradingRun.submission_id == Submission.id)
        .where(GradingRun.id.in_(latest_run_ids(exercise)), GradingRun.misconception.is_not(None))
    )
    return {user_id: name for user_id, name in rows if name is not None}


def outcomes(session: Session, exercise: Exercise) -> Outcomes:
    passed = GradingRun.verdict == RunVerdict.PASSED
    row = session.execute(
        select(
            func.sum(case((passed, 1), else_=0)),
            func.sum(case((~passed & GradingRun.misconception.is_(None), 1), else_=0)),
        ).where(GradingRun.id.in_(latest_run_ids(exercise)))
    ).one()
    return Outcomes(int(row[0] or 0), int(row[1] or 0))


def trajectories(
    session: Session, exercise: Exercise, implementation: str | None = None
) -> dict[str, Trajectory]:
    where = [Submission.exercise_id == exercise.id, *_counted()]
    shown_where = [*where, GradingRun.misconception.is_not(None)]
    if implementation is not None:
        shown_where.append(GradingRun.misconception == implementation)
    shown = (
        select(
            Submission.user_id,
            GradingRun.misconception,
            func.min(GradingRun.id).label("first_run"),
            func.max(GradingRun.id).label("last_run"),
        )
        .join(Submission, GradingRun.submission_id == Submission.id)
        .where(*shown_where)
        .group_by(Submission.user_id, GradingRun.misconception)
        .subquery("shown")
    )
    passes = (
        select(Submission.user_id, GradingRun.id.label("run_id"))
        .join(Submission, GradingRun.submission_id == Submission.id)
        .where(*where, GradingRun.verdict == RunVerdict.PASSED)
        .subquery("passes")
    )
    moves = (
        select(
            shown.c.user_id,
            shown.c.misconception,
            shown.c.first_run,
            func.min(passes.c.run_id).label("pass_run"),
        )
        .select_from(shown)
        .outerjoin(
            passes,
            (passes.c.user_id == shown.c.user_id) & (passes.c.run_id > shown.c.last_run),
        )
        .group_by(shown.c.user_id, shown.c.misconception, shown.c.first_run)
        .subquery("moves")
    )
    latest = (
        select(Submission.user_id, GradingRun.misconception)
        .join(Submission, GradingRun.submission_id == Submission.id)
        .where(GradingRun.id.in_(latest_run_ids(exercise)))
        .subquery("latest")
    )
    first = aliased(GradingRun)
    passed = aliased(GradingRun)
    rows = session.execute(
        select(
            moves.c.misconception,
            User.id,
            User.name,
            _contact_email(),
            func.coalesce(first.finished_at, first.queued_at),
            passed.submission_id,
            func.coalesce(passed.finished_at, passed.queued_at),
            latest.c.misconception,
        )
        .select_from(moves)
        .join(User, User.id == moves.c.user_id)
        .join(first, first.id == moves.c.first_run)
        .outerjoin(passed, passed.id == moves.c.pass_run)
        .outerjoin(latest, latest.c.user_id == moves.c.user_id)
        .order_by(moves.c.misconception, User.name, User.id)
    ).all()
    found: dict[str, Trajectory] = {}
    weeks: dict[str, dict[str, list[int]]] = {}
    for name, user_id, user_name, email, first_at, pass_submission, passed_at, now in rows:
        trajectory = found.setdefault(name, Trajectory(name))
        by_week = weeks.setdefault(name, {})
        trajectory.ever += 1
        by_week.setdefault(_iso_week(first_at), [0, 0])[0] += 1
        if now == name:
            trajectory.still += 1
        if pass_submission is not None and passed_at is not None:
            trajectory.moved.append(
                StudentMoved(user_id, user_name, email, pass_submission, aware(passed_at))
            )
            by_week.setdefault(_iso_week(passed_at), [0, 0])[1] += 1
    for name, trajectory in found.items():
        trajectory.weeks = [
            Week(week, first_shown, moved)
            for week, (first_shown, moved) in sorted(weeks[name].items())
        ]
    return found


def _iso_week(moment: datetime) -> str:
    year, week, _ = aware(moment).isocalendar()
    return f"{year}-W{week:02d}"


# grader.services.grades


def student_grades(
    session: Session,
    exercise: Exercise,
    user_ids: Iterable[int] | None = None,
    *,
    regrade_id: int | None = None,
) -> dict[int, StudentGrade]:
    by_id = {exercise.id: exercise}
    wanted = None if user_ids is None else set(user_ids)
    counts: ColumnElement[bool] = GradingRun.counted.is_(True)
    if regrade_id is not None:
        counts = counts | (GradingRun.regrade_id == regrade_id)
    latest_run = (
        select(GradingRun.submission_id, func.max(GradingRun.id).label("run_id"))
        .join(Submission, GradingRun.submission_id == Submission.id)
        .where(
            Submission.exercise_id.in_(by_id),
            counts,
            GradingRun.state == RunState.GRADED,
            GradingRun.verdict != RunVerdict.INTERNAL_ERROR,
        )
        .group_by(GradingRun.submission_id)
        .subquery()
    )
    rows = select(
        Submission.exercise_id,
        Submission.user_id,
        Submission.id,
        Submission.attempt,
        Submission.created_at,
        GradingRun.verdict,
        GradingRun.score,
        GradingRun.max_score,
        GradingRun.id,
    ).select_from(Submission)
    rows = (
        rows.outerjoin(latest_run, latest_run.c.submission_id == Submission.id)
        .outerjoin(GradingRun, GradingRun.id == latest_run.c.run_id)
        .where(Submission.exercise_id.in_(by_id), Submission.kind == SubmissionKind.ATTEMPT)
        .order_by(Submission.exercise_id, Submission.user_id, Submission.attempt, Submission.id)
    )
    extensions_query = select(Extension).where(Extension.exercise_id.in_(by_id))
    overrides_query = select(GradeOverride).where(GradeOverride.exercise_id.in_(by_id))
    if wanted is not None:
        rows = rows.where(Submission.user_id.in_(wanted))
        extensions_query = extensions_query.where(Extension.user_id.in_(wanted))
        overrides_query = overrides_query.where(GradeOverride.user_id.in_(wanted))
    extensions = {(row.exercise_id, row.user_id): row for row in session.scalars(extensions_query)}
    overrides = {(row.exercise_id, row.user_id): row for row in session.scalars(overrides_query)}
    grades: dict[tuple[int, int], StudentGrade] = {}

    def grade_of(key: tuple[int, int]) -> StudentGrade:
        if key not in grades:
            grades[key] = StudentGrade(
                key[1], deadline(by_id[key[0]], extensions.get(key)), [], overrides.get(key)
            )
        return grades[key]

    for (
        exercise_id,
        user_id,
        submission_id,
        attempt,
        created_at,
        verdict,
        score,
        max_score,
        run_id,
    ) in session.execute(rows).all():
        grade = grade_of((exercise_id, user_id))
        grade.attempts.append(
            AttemptScore(
                submission_id=submission_id,
                attempt=attempt,
                submitted_at=aware(created_at),
                verdict=verdict,
                raw_score=score,
                max_score=max_score,
                lateness=grade.deadline.lateness(created_at),
                graded=run_id is not None,
            )
        )
    for key in [*extensions, *overrides]:
        grade_of(key)
    for exercise_id in by_id:
        for user_id in wanted or ():
            grade_of((exercise_id, user_id))
    return {user_id: grade for (_, user_id), grade in grades.items()}


# grader.services.roster


def roster_activity(session: Session, course: Course) -> dict[int, tuple[datetime, int]]:
    """Each student's latest attempt on the course's exercises and how many they tried."""
    students = session.scalars(
        select(User)
        .join(Membership, Membership.user_id == User.id)
        .where(Membership.course_id == course.id, Membership.role == Role.STUDENT)
        .order_by(User.name, User.id)
    ).all()
    ids = [user.id for user in students]
    return {
        user_id: (aware(last), attempted)
        for user_id, last, attempted in session.execute(
            select(
                Submission.user_id,
                func.max(Submission.created_at),
                func.count(distinct(Submission.exercise_id)),
            )
            .join(Exercise, Exercise.id == Submission.exercise_id)
            .where(
                Exercise.course_id == course.id,
                Submission.kind == SubmissionKind.ATTEMPT,
                Submission.user_id.in_(ids),
            )
            .group_by(Submission.user_id)
        )
    }
