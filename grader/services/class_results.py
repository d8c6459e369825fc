"""What a class did on an exercise, from each student's latest graded run: where on each
public tree they go wrong, their verdicts and scores, their most common first divergences,
and the grade book as rows.

Every figure is read from the stored rows (:mod:`grader.services.results`), no report is
read back: each student's latest run once per page
(:func:`grader.services.latest_runs.read_latest_runs`: the students, verdicts and scores are
counted from its rows), then the heat map groups those runs' node rows by tree, node and
verdict, the divergences group their tree rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import ColumnElement, Integer, Select, bindparam, case, func, select
from sqlalchemy.orm import Session

from grader.models import (
    Exercise,
    NodeResult,
    TreeResult,
)
from grader.services.latest_runs import LatestRun, latest_runs, read_latest_runs
from reference.feedback import GOOD_VERDICTS

BUCKETS = 10
"""Score histogram buckets (0-10 %, ..., 90-100 %)."""

TOP_DIVERGENCES = 10


def latest_run_ids(exercise: Exercise) -> Select[tuple[int]]:
    """The ids of each student's latest counted graded run on ``exercise``
    (:func:`grader.services.latest_runs.latest_runs`)."""
    return select(latest_runs(exercise).c.run_id)


def students_graded(
    session: Session, exercise: Exercise, latest: Sequence[LatestRun] | None = None
) -> int:
    """How many students have a graded run on ``exercise``: from ``latest`` (the page's
    :func:`grader.services.latest_runs.read_latest_runs`), read here when not given."""
    return len(_latest(session, exercise, latest))


def _latest(
    session: Session, exercise: Exercise, latest: Sequence[LatestRun] | None
) -> Sequence[LatestRun]:
    return read_latest_runs(session, exercise) if latest is None else latest


def _public_trees(latest: Sequence[LatestRun]) -> list[ColumnElement[bool]]:
    """The conditions that pick the public trees of the students' latest runs: by their
    ids, through the index of the trees' runs (no join for the planner to misjudge). The
    ids are written into the statement: a thousand bound parameters cost more to render
    and to send than the query itself (10 ms against 3 ms)."""
    ids = [run.run_id for run in latest]
    listed = bindparam("run_ids", ids, type_=Integer, expanding=True, literal_execute=True)
    return [TreeResult.run_id.in_(listed), TreeResult.hidden.is_(False)]


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


def heat_maps(
    session: Session, exercise: Exercise, latest: Sequence[LatestRun] | None = None
) -> list[TreeHeat]:
    """For each public tree, each node's verdicts over the students' latest runs: the node
    rows counted by tree, node and verdict, in the trees' and the nodes' order (``latest``
    as for :func:`students_graded`)."""
    where = _public_trees(_latest(session, exercise, latest))
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


def verdict_distribution(
    session: Session, exercise: Exercise, latest: Sequence[LatestRun] | None = None
) -> list[tuple[str, int]]:
    """How many students' latest runs ended with each verdict, most frequent first
    (``latest`` as for :func:`students_graded`)."""
    counts = Counter(run.verdict or "none" for run in _latest(session, exercise, latest))
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


def score_histogram(
    session: Session,
    exercise: Exercise,
    buckets: int = BUCKETS,
    latest: Sequence[LatestRun] | None = None,
) -> list[Bucket]:
    """The students' latest scores as a share of the maximum, in equal buckets (the last
    one holds 100 %; ``latest`` as for :func:`students_graded`)."""
    counts = [0] * buckets
    for run in _latest(session, exercise, latest):
        score, max_score = run.score, run.max_score
        if score is None or max_score is None or max_score <= 0:
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
    session: Session,
    exercise: Exercise,
    top: int = TOP_DIVERGENCES,
    latest: Sequence[LatestRun] | None = None,
) -> list[Divergence]:
    """The most common first divergences (tree, node and message), most frequent first
    (``latest`` as for :func:`students_graded`)."""
    count = func.count()
    where = _public_trees(_latest(session, exercise, latest))
    rows = session.execute(
        select(
            TreeResult.name,
            TreeResult.divergence_node,
            TreeResult.divergence_message,
            count,
        )
        .where(*where, TreeResult.divergence_node.is_not(None))
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
