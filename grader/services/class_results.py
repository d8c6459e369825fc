"""What a class did on an exercise, from each student's latest graded run: where on each
public tree they go wrong, their verdicts and scores, their most common first divergences,
and the grade book as rows.

Every figure is a query over the stored rows (:mod:`grader.services.results`): the heat
map groups the latest runs' node rows by tree, node and verdict, the divergences group
their tree rows; no report is read back.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sqlalchemy import ColumnElement, Select, case, func, select
from sqlalchemy.orm import Session

from grader.models import (
    Exercise,
    GradingRun,
    NodeResult,
    RunState,
    Submission,
    TreeResult,
)
from grader.models.submissions import SubmissionKind
from reference.feedback import GOOD_VERDICTS

BUCKETS = 10
"""Score histogram buckets (0-10 %, ..., 90-100 %)."""

TOP_DIVERGENCES = 10


def latest_run_ids(exercise: Exercise) -> Select[int]:
    """The ids of each student's latest graded run (the highest id) on ``exercise``, of
    their attempts (checks count towards nothing)."""
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
    """How many students have a graded run on ``exercise``."""
    subquery = latest_run_ids(exercise).subquery()
    return session.scalar(select(func.count()).select_from(subquery)) or 0


@dataclass
class NodeHeat:
    """How the students' searches went at one node of a public tree."""

    node: str
    students: int = 0
    """Students with a verdict on this node."""
    verdicts: Counter[str] = field(default_factory=Counter)
    """Students by verdict; trees too large for a row per node leave out the good ones,
    which are counted in ``unlisted``."""

    @property
    def unlisted(self) -> int:
        """Students with a good verdict here that was not stored node by node."""
        return max(0, self.students - self.verdicts.total())

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
        if self.unlisted:
            parts.append(f"{self.unlisted} ok, pruned or not observed")
        head = f"{self.node}: {round(100 * self.share)}% wrong ({self.wrong} of {self.students})"
        return head + (": " + ", ".join(parts) if parts else "")


@dataclass
class TreeHeat:
    """A public tree's nodes with the students' verdicts on them."""

    name: str
    students: int = 0
    """Students whose search of this tree ran to its end (every node has a verdict)."""
    nodes: dict[str, NodeHeat] = field(default_factory=dict)


def _public_trees(exercise: Exercise) -> list[ColumnElement[bool]]:
    """The conditions that pick the public trees of the students' latest runs."""
    return [TreeResult.run_id.in_(latest_run_ids(exercise)), TreeResult.hidden.is_(False)]


def heat_maps(session: Session, exercise: Exercise) -> list[TreeHeat]:
    """For each public tree, each node's verdicts over the students' latest runs: the node
    rows counted by tree, node and verdict, in the trees' and the nodes' order."""
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
    """How many students' latest runs ended with each verdict, most frequent first."""
    rows = session.execute(
        select(GradingRun.verdict, func.count())
        .where(GradingRun.id.in_(latest_run_ids(exercise)))
        .group_by(GradingRun.verdict)
    ).all()
    counts = Counter({verdict or "none": count for verdict, count in rows})
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


def score_histogram(session: Session, exercise: Exercise, buckets: int = BUCKETS) -> list[Bucket]:
    """The students' latest scores as a share of the maximum, in equal buckets (the last
    one holds 100 %)."""
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


@dataclass(frozen=True, slots=True)
class Divergence:
    """A first divergence shared by ``count`` students on a public tree."""

    tree: str
    node: str
    message: str
    count: int


def common_divergences(
    session: Session, exercise: Exercise, top: int = TOP_DIVERGENCES
) -> list[Divergence]:
    """The most common first divergences (tree, node and message), most frequent first."""
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
