"""What a class did on an exercise, from each student's latest graded run: where on each
public tree they go wrong, their verdicts and scores, their most common first divergences,
and the grade book as rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.models import Exercise, GradingRun, Membership, Role, RunState, Submission, User
from reference.feedback import GOOD_VERDICTS
from reference.report import Report, RunVerdict, TreeCase

BUCKETS = 10
"""Score histogram buckets (0-10 %, ..., 90-100 %)."""

TOP_DIVERGENCES = 10


@dataclass(frozen=True, slots=True)
class LatestRun:
    """A student's latest graded run on the exercise."""

    user: User
    submission: Submission
    run: GradingRun


def latest_graded_runs(session: Session, exercise: Exercise) -> list[LatestRun]:
    """Each student's latest graded run (the highest id) on ``exercise``, by student name."""
    latest = (
        select(func.max(GradingRun.id))
        .join(Submission, GradingRun.submission_id == Submission.id)
        .where(Submission.exercise_id == exercise.id, GradingRun.state == RunState.GRADED)
        .group_by(Submission.user_id)
    )
    rows = session.execute(
        select(User, Submission, GradingRun)
        .join(Submission, GradingRun.submission_id == Submission.id)
        .join(User, Submission.user_id == User.id)
        .where(GradingRun.id.in_(latest))
        .order_by(User.name, User.id)
    ).all()
    return [LatestRun(user, submission, run) for user, submission, run in rows]


def _public_cases(run: GradingRun) -> list[TreeCase]:
    if run.report is None:
        return []
    return [case for case in Report.from_json(run.report).cases if not case.hidden]


@dataclass
class NodeHeat:
    """How the students' searches went at one node of a public tree."""

    node: str
    students: int = 0
    """Students with a verdict on this node."""
    verdicts: Counter[str] = field(default_factory=Counter)

    @property
    def wrong(self) -> int:
        """Students whose verdict here is a mistake."""
        return sum(
            count for verdict, count in self.verdicts.items() if verdict not in GOOD_VERDICTS
        )

    @property
    def share(self) -> float:
        """The share of students with a mistake here (0 to 1)."""
        return self.wrong / self.students if self.students else 0.0

    def breakdown(self) -> str:
        """The verdicts in words: ``50% wrong (1 of 2): 1 extra; 1 ok``."""
        parts = [
            f"{count} {verdict}"
            for verdict, count in sorted(self.verdicts.items(), key=lambda kv: (-kv[1], kv[0]))
        ]
        head = f"{self.node}: {round(100 * self.share)}% wrong ({self.wrong} of {self.students})"
        return head + (": " + ", ".join(parts) if parts else "")


@dataclass
class TreeHeat:
    """A public tree's nodes with the students' verdicts on them."""

    name: str
    students: int = 0
    nodes: dict[str, NodeHeat] = field(default_factory=dict)


def heat_maps(latest: Sequence[LatestRun]) -> list[TreeHeat]:
    """For each public tree, each node's verdicts over the students' latest runs."""
    trees: dict[str, TreeHeat] = {}
    for item in latest:
        for case in _public_cases(item.run):
            heat = trees.setdefault(case.name, TreeHeat(case.name))
            if not case.nodes:
                continue  # the search did not finish: nothing to say per node
            heat.students += 1
            for node in case.nodes:
                entry = heat.nodes.setdefault(node.node, NodeHeat(node.node))
                entry.students += 1
                entry.verdicts[str(node.verdict)] += 1
    return list(trees.values())


def verdict_distribution(latest: Sequence[LatestRun]) -> list[tuple[str, int]]:
    """How many students' latest runs ended with each verdict, most frequent first."""
    counts = Counter(item.run.verdict or "none" for item in latest)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass(frozen=True, slots=True)
class Bucket:
    """One bar of the score histogram: scores from ``low`` % up to ``high`` %."""

    low: int
    high: int
    count: int

    @property
    def label(self) -> str:
        return f"{self.low}-{self.high} %"


def score_histogram(latest: Sequence[LatestRun], buckets: int = BUCKETS) -> list[Bucket]:
    """The students' latest scores as a share of the maximum, in equal buckets (the last
    one holds 100 %)."""
    counts = [0] * buckets
    for item in latest:
        run = item.run
        if run.score is None or not run.max_score:
            continue
        share = max(0.0, min(1.0, run.score / run.max_score))
        counts[min(int(share * buckets), buckets - 1)] += 1
    width = 100 // buckets
    return [
        Bucket(index * width, 100 if index == buckets - 1 else (index + 1) * width, count)
        for index, count in enumerate(counts)
    ]


@dataclass(frozen=True, slots=True)
class Divergence:
    """A first divergence shared by ``count`` students on a public tree."""

    tree: str
    node: str
    message: str
    count: int


def common_divergences(latest: Sequence[LatestRun], top: int = TOP_DIVERGENCES) -> list[Divergence]:
    """The most common first divergences (tree, node and message), most frequent first."""
    counts: Counter[tuple[str, str, str]] = Counter()
    for item in latest:
        for case in _public_cases(item.run):
            divergence = case.first_divergence
            if divergence is not None:
                counts[(case.name, divergence.node, divergence.message)] += 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return [Divergence(tree, node, message, count) for (tree, node, message), count in ranked]


# The grade book.


@dataclass(frozen=True, slots=True)
class GradeRow:
    """One student's line of the grade book."""

    name: str
    email: str
    attempts: int
    verdict: str | None
    score: float | None
    max_score: float | None
    best_score: float | None
    last_submitted: datetime | None


def grade_rows(session: Session, exercise: Exercise) -> list[GradeRow]:
    """One row per student of the course and per other submitter, by name: attempts, the
    latest graded run's verdict and score, the best score, the latest submission time."""
    latest = {item.user.id: item.run for item in latest_graded_runs(session, exercise)}
    stats = {
        user_id: (attempts, last)
        for user_id, attempts, last in session.execute(
            select(
                Submission.user_id, func.max(Submission.attempt), func.max(Submission.created_at)
            )
            .where(Submission.exercise_id == exercise.id)
            .group_by(Submission.user_id)
        ).all()
    }
    best = dict(
        session.execute(
            select(Submission.user_id, func.max(GradingRun.score))
            .join(GradingRun, GradingRun.submission_id == Submission.id)
            .where(
                Submission.exercise_id == exercise.id,
                GradingRun.state == RunState.GRADED,
                GradingRun.verdict != RunVerdict.INTERNAL_ERROR,
            )
            .group_by(Submission.user_id)
        ).all()
    )
    enrolled = select(Membership.user_id).where(
        Membership.course_id == exercise.course_id, Membership.role == Role.STUDENT
    )
    users = session.scalars(
        select(User)
        .where(User.id.in_(enrolled) | User.id.in_(list(stats)))
        .order_by(User.name, User.id)
    ).all()
    rows = []
    for user in users:
        attempts, last = stats.get(user.id, (0, None))
        run = latest.get(user.id)
        rows.append(
            GradeRow(
                name=user.name,
                email=user.contact_email,
                attempts=attempts or 0,
                verdict=None if run is None else run.verdict,
                score=None if run is None else run.score,
                max_score=None if run is None else run.max_score,
                best_score=best.get(user.id),
                last_submitted=last,
            )
        )
    return rows
