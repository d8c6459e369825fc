"""How long superseded attempts keep their node rows (``GRADER_NODE_ROWS_KEEP_DAYS``).

A graded run stores a row per node of each tree it judged (up to
``GRADER_NODE_ROWS_LIMIT`` per tree): most of what a term writes to the database (see
bench/capacity.py and the README's "What a term costs"). Once a student's later attempt on
the same exercise has been graded for that many days, the earlier attempts' runs (and any
check of a draft made before it) lose their node rows; everything else stays: the run's
verdict, score and diagnosis, each tree's verdict, score, counts by verdict and first
divergence. Their report then lists no node and says how many of each verdict were not
kept (``nodes_omitted``), as a report cut by the node-rows limit does, and its page says
when and why they went (the run's details note the day); the class's pages read only each
student's latest attempt's nodes, which are never compacted. With 0 (the default) nothing
is ever compacted.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

from sqlalchemy import delete, exists, select
from sqlalchemy.orm import Session, aliased, undefer

from grader.config import Settings
from grader.db import Database
from grader.models import GradingRun, NodeResult, RunState, Submission, TreeResult, utcnow
from grader.models.submissions import SubmissionKind

BATCH_TREES = 500
"""Trees compacted per transaction (a few hundred thousand node rows at most)."""


def superseded_trees(
    session: Session, settings: Settings, now: datetime | None = None, limit: int = BATCH_TREES
) -> list[int]:
    """Up to ``limit`` trees of superseded runs that still hold node rows (none when
    ``settings.node_rows_keep_days`` is 0)."""
    if settings.node_rows_keep_days <= 0:
        return []
    cutoff = (now or utcnow()) - timedelta(days=settings.node_rows_keep_days)
    earlier = aliased(Submission)
    later = aliased(Submission)
    later_run = aliased(GradingRun)
    superseding = (
        select(later_run.id)
        .join(later, later_run.submission_id == later.id)
        .where(
            later.user_id == earlier.user_id,
            later.exercise_id == earlier.exercise_id,
            later.id > earlier.id,
            later.kind == SubmissionKind.ATTEMPT,
            later_run.state == RunState.GRADED,
            later_run.finished_at < cutoff,
        )
    )
    runs = (
        select(GradingRun.id)
        .join(earlier, GradingRun.submission_id == earlier.id)
        .where(GradingRun.state == RunState.GRADED, exists(superseding))
    )
    holding = exists(select(NodeResult.id).where(NodeResult.tree_result_id == TreeResult.id))
    return list(
        session.scalars(
            select(TreeResult.id)
            .where(TreeResult.run_id.in_(runs), holding)
            .order_by(TreeResult.id)
            .limit(limit)
        )
    )


def compact(session: Session, settings: Settings, now: datetime | None = None) -> int:
    """Delete the node rows of one batch of superseded trees; how many rows went."""
    trees = superseded_trees(session, settings, now)
    if not trees:
        return 0
    deleted = session.execute(delete(NodeResult).where(NodeResult.tree_result_id.in_(trees)))
    day = (now or utcnow()).date().isoformat()
    runs = select(TreeResult.run_id).where(TreeResult.id.in_(trees)).distinct()
    graded = select(GradingRun).where(GradingRun.id.in_(runs))
    for run in session.scalars(graded.options(undefer(GradingRun.details))):  # one read
        if run.details is not None and not run.details.get("compacted"):
            run.details = {**run.details, "compacted": day}  # its page says so
    return int(getattr(deleted, "rowcount", 0) or 0)


def compact_for(database: Database, settings: Settings, seconds: float) -> int:
    """Compact batch after batch, each in a transaction of its own, until none is left or
    ``seconds`` have passed; how many node rows went."""
    deadline = time.monotonic() + seconds
    total = 0
    while time.monotonic() < deadline:
        with database.session() as session:
            went = compact(session, settings)
        if not went:
            break
        total += went
    return total
