"""The analysis of an exercise version: the heavy work on it, done by a worker.

Expanding a version's games, the reference trace of each public tree and the hidden-tree
check can take minutes (the full tic-tac-toe tree has 549,946 nodes), so no request does
them: a version's :class:`~grader.models.VersionAnalysis` is queued when the version is
saved (or by the reaper, for a version saved before analyses existed: a page read never
asks for one), a worker runs :func:`analyse` and stores its result as JSON, and every page
reads that result (:func:`stored_result`).

The row is the truth about the work: a task claims it (:func:`analyse`), commits its
stage and progress as it goes, and stores the result only while its claim still holds; a
task for finished work does nothing; a lost one is sent again by the reaper
(:func:`stuck_analyses`); a failed one is sent again when an instructor asks
(:func:`run_again`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.models import AnalysisState, Exercise, ExerciseVersion, VersionAnalysis, utcnow
from grader.services.authoring import MAX_STEPS, Step, check_hidden, reference_traces
from grader.services.exercise_store import load_materialized, materialize, relative_problems
from grader.services.hidden_keys import exercise_key
from grader.services.tasks import ANALYSE_TASK
from grader.services.unit_of_work import Dispatcher
from reference import progress
from reference.exercises.model import Exercise as ExerciseModel
from reference.problems import FileProblems, Problem
from reference.stored_tree import StoredTree, from_json, to_json

log = logging.getLogger(__name__)

RESULT_FORMAT = 1
"""The form of ``VersionAnalysis.result``; a result of another form is made again."""
UNSENT_GRACE = timedelta(seconds=60)
"""A queued analysis whose task never reached the broker is sent again after this long."""
RUNNING_TIMEOUT = timedelta(minutes=30)
"""An analysis running this long lost its worker: it is sent again."""
MISSING_PER_PASS = 20
"""Versions without an analysis given one by each pass of the reaper (minutes of work each,
on the one maintenance worker: a backlog is worked through a pass at a time)."""
TOLD_EVERY = 0.5
"""Seconds between two commits of the stage and progress."""
STAGES = {"load": (0.0, 0.45), "traces": (0.45, 0.85), "hidden": (0.85, 1.0)}
"""Each stage's share of the progress bar (from, to)."""


# Asking for an analysis.


def analysis_of(session: Session, version_id: int) -> VersionAnalysis | None:
    """The analysis row of a version (without its result), if any."""
    return session.get(VersionAnalysis, version_id)


def request_analysis(
    session: Session, version: ExerciseVersion, sender: Dispatcher
) -> VersionAnalysis:
    """The version's analysis: a new one, queued and sent after the commit, when there is
    none (another request making it at the same moment wins, and its row is returned)."""
    found = analysis_of(session, version.id)
    if found is not None and _current(found):
        return found
    if found is not None:
        # A result of an older form: made again.
        _requeue(found)
        sender.dispatch(session, ANALYSE_TASK, [version.id])
        return found
    try:
        with session.begin_nested():
            row = VersionAnalysis(version_id=version.id, state=AnalysisState.QUEUED)
            session.add(row)
            session.flush()
    except IntegrityError:
        existing = session.get(VersionAnalysis, version.id)
        assert existing is not None
        return existing
    sender.dispatch(session, ANALYSE_TASK, [version.id])
    return row


def _current(row: VersionAnalysis) -> bool:
    """False for a finished analysis stored in an older form."""
    if row.state != AnalysisState.DONE:
        return True
    return row.stage == _DONE_STAGE


def run_again(session: Session, row: VersionAnalysis, sender: Dispatcher) -> bool:
    """Queue a failed analysis again (sent after the commit); False when it has not failed."""
    if row.state != AnalysisState.FAILED:
        return False
    _requeue(row)
    sender.dispatch(session, ANALYSE_TASK, [row.version_id])
    return True


def _requeue(row: VersionAnalysis) -> None:
    row.state = AnalysisState.QUEUED
    row.stage = ""
    row.progress = 0.0
    row.error = None
    row.task_id = None
    row.queued_at = utcnow()
    row.started_at = None
    row.finished_at = None


def mark_sent(session: Session, version_id: int, task_id: str) -> None:
    """Note the task id of a queued analysis's message (the reaper sends it again when
    none is noted after a while)."""
    session.execute(
        update(VersionAnalysis)
        .where(
            VersionAnalysis.version_id == version_id,
            VersionAnalysis.state == AnalysisState.QUEUED,
        )
        .values(task_id=task_id)
    )


def stuck_analyses(session: Session, _settings: Settings, now: datetime | None = None) -> list[int]:
    """Analyses to send again, put back in the queue: queued but never sent, running past
    :data:`RUNNING_TIMEOUT` (their worker was lost) or done in an older form; and, up to
    :data:`MISSING_PER_PASS`, those of versions that have none (saved before analyses
    existed: no page makes them). The reaper sends them after the commit."""
    now = now or utcnow()
    rows = session.scalars(
        select(VersionAnalysis)
        .where(
            or_(
                (VersionAnalysis.state == AnalysisState.QUEUED)
                & VersionAnalysis.task_id.is_(None)
                & (VersionAnalysis.queued_at < now - UNSENT_GRACE),
                (VersionAnalysis.state == AnalysisState.RUNNING)
                & (VersionAnalysis.started_at < now - RUNNING_TIMEOUT),
                (VersionAnalysis.state == AnalysisState.DONE)
                & (VersionAnalysis.stage != _DONE_STAGE),
            )
        )
        .with_for_update(skip_locked=True)
    ).all()
    for row in rows:
        _requeue(row)
    return [row.version_id for row in rows] + _make_missing(session)


def unstarted_analyses(session: Session, _settings: Settings) -> list[int]:
    """Queued analyses whose task the broker took, put back as never sent (the reaper
    sends them again after the commit, when the broker lost its messages)."""
    rows = session.scalars(
        select(VersionAnalysis)
        .where(
            VersionAnalysis.state == AnalysisState.QUEUED,
            VersionAnalysis.task_id.is_not(None),
        )
        .with_for_update(skip_locked=True)
    ).all()
    for row in rows:
        _requeue(row)
    return [row.version_id for row in rows]


def _make_missing(session: Session) -> list[int]:
    """Queued analysis rows for versions that have none (one made at the same moment by a
    request is left to it)."""
    missing = session.scalars(
        select(ExerciseVersion.id)
        .outerjoin(VersionAnalysis, VersionAnalysis.version_id == ExerciseVersion.id)
        .where(VersionAnalysis.version_id.is_(None))
        .order_by(ExerciseVersion.id)
        .limit(MISSING_PER_PASS)
    ).all()
    made = []
    for version_id in missing:
        try:
            with session.begin_nested():
                session.add(VersionAnalysis(version_id=version_id, state=AnalysisState.QUEUED))
                session.flush()
        except IntegrityError:
            continue
        made.append(version_id)
    return made


# Doing the analysis (in a worker).

_DONE_STAGE = f"done (result form {RESULT_FORMAT})"


def analyse(database: Database, settings: Settings, version_id: int, task_id: str = "eager") -> str:
    """Analyse version ``version_id`` and store the result in its row, committing the
    stage and progress as it goes; what happened, in words. Does nothing for a version
    analysed already or claimed by another task that still runs."""
    with database.session() as session:
        row = session.get(VersionAnalysis, version_id, with_for_update=True)
        version = session.get(ExerciseVersion, version_id)
        if row is None or version is None:
            return "no such analysis"
        if row.state == AnalysisState.DONE:
            return "done already"
        if row.state == AnalysisState.FAILED:
            return "failed (run again from the preview)"
        if row.state == AnalysisState.RUNNING and row.task_id != task_id:
            return "claimed by another task"
        row.state = AnalysisState.RUNNING
        row.task_id = task_id
        row.started_at = utcnow()
        row.stage = "loading the exercise"
        row.progress = 0.0
        exercise = session.get(Exercise, version.exercise_id)
        assert exercise is not None
        folder = materialize(settings, exercise.slug, version)
        content = (version.content_hash, exercise.slug)
        key = exercise_key(settings, exercise)
    teller = _Teller(database, version_id, task_id)
    try:
        result = _result(settings, folder, content, key, teller)
    except Exception as error:
        log.exception("the analysis of version %s failed", version_id)
        return _finish(database, version_id, task_id, None, _error_text(error))
    return _finish(database, version_id, task_id, result, None)


def _error_text(error: Exception) -> str:
    """What went wrong, in one line a page may show (the log has the traceback)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}"[:500] if text else type(error).__name__


def _finish(
    database: Database,
    version_id: int,
    task_id: str,
    result: dict[str, Any] | None,
    error: str | None,
) -> str:
    """Store the outcome, if this task's claim on the analysis still holds."""
    values: dict[str, Any] = {"finished_at": utcnow()}
    if result is not None:
        values.update(state=AnalysisState.DONE, stage=_DONE_STAGE, progress=1.0, result=result)
    else:
        values.update(state=AnalysisState.FAILED, stage="failed", error=error)
    with database.session() as session:
        stored = session.execute(
            update(VersionAnalysis)
            .where(
                VersionAnalysis.version_id == version_id,
                VersionAnalysis.task_id == task_id,
                VersionAnalysis.state == AnalysisState.RUNNING,
            )
            .values(**values)
        ).rowcount  # type: ignore[attr-defined]
    if not stored:
        return "lost the analysis to another task's claim"
    return "done" if result is not None else f"failed: {error}"


class _Teller:
    """Commits the stage and progress of a running analysis, at most every
    :data:`TOLD_EVERY` seconds (the last word of a stage is always told)."""

    def __init__(self, database: Database, version_id: int, task_id: str) -> None:
        self._database = database
        self._version_id = version_id
        self._task_id = task_id
        self._last = 0.0
        self._lock = threading.Lock()

    def stage(self, name: str, done: float, stage: str, *, force: bool = True) -> None:
        """Tell that ``stage`` (in words) is under way, ``done`` (0..1) through ``name``."""
        start, end = STAGES[name]
        now = time.monotonic()
        with self._lock:
            if not force and now - self._last < TOLD_EVERY:
                return
            self._last = now
        with self._database.session() as session:
            session.execute(
                update(VersionAnalysis)
                .where(
                    VersionAnalysis.version_id == self._version_id,
                    VersionAnalysis.task_id == self._task_id,
                    VersionAnalysis.state == AnalysisState.RUNNING,
                )
                .values(stage=stage[:200], progress=start + (end - start) * min(done, 1.0))
            )


def _result(
    settings: Settings, folder: Path, content: tuple[str, str], key: bytes, teller: _Teller
) -> dict[str, Any]:
    """The analysis of the exercise in ``folder`` (its version's content hash and slug:
    ``content``; its hidden trees drawn under ``key``) as the JSON its row stores."""
    teller.stage("load", 0.0, "loading the exercise")

    def expanding(doing: str, made: int) -> None:
        teller.stage("load", 0.0, f"{doing}: {made:,} nodes", force=False)

    with progress.listening(expanding):
        try:
            model = load_materialized(*content, folder)
        except FileProblems as problems:
            found = relative_problems(problems.problems, folder)
            return {"format": RESULT_FORMAT, "problems": [_problem(p) for p in found]}
    trees = []
    for index, entry in enumerate(model.trees):
        teller.stage("traces", index / len(model.trees), f"reference trace of tree {entry.name}")
        trace = reference_traces(_only(model, index))[0]
        stored = to_json(entry.tree)
        kept = {node[0] for node in stored["nodes"]}
        trees.append(
            {
                "name": entry.name,
                "source": entry.source,
                "nodes": len(entry.tree),
                "tree": stored,
                "steps": [[s.node, s.kind, s.text, s.depth] for s in trace.steps[:MAX_STEPS]],
                "total_steps": trace.total_steps,
                "value": trace.value,
                "decision": trace.decision,
                "visited": trace.visited,
                # Only the kept nodes' marks: the pages draw no others.
                "values": {name: v for name, v in trace.values.items() if name in kept},
                "pruned": sorted(name for name in trace.pruned if name in kept),
            }
        )
    teller.stage("hidden", 0.0, "hidden-tree check")
    hidden: dict[str, Any] | None
    try:
        check = check_hidden(model, settings.exercises_dir, key)
        hidden = {
            "trees": [{"name": name, "tree": to_json(tree)} for name, tree in check.trees],
            "rows": [[name, bug, list(caught)] for name, bug, caught in check.rows],
            "error": None,
            "cut_short": check.cut_short,
        }
    except Exception as error:
        # The traces are still worth showing; the log keeps what went wrong.
        log.exception("the hidden-tree check of %s failed", folder)
        hidden = {"trees": [], "rows": [], "error": _error_text(error)}
    return {"format": RESULT_FORMAT, "problems": [], "trees": trees, "hidden": hidden}


def _only(model: ExerciseModel, index: int) -> ExerciseModel:
    """``model`` with only its tree ``index`` (its trace alone, one tree at a time)."""
    return replace(model, trees=(model.trees[index],))


def _problem(problem: Problem) -> dict[str, Any]:
    return {
        "file": problem.file,
        "line": problem.line,
        "column": problem.column,
        "message": problem.message,
    }


# Reading a stored result (pages).


@dataclass(frozen=True, slots=True)
class StoredTrace:
    """A public tree of an analysed version: its drawing and its reference trace."""

    name: str
    source: str
    nodes: int
    drawing: StoredTree
    steps: tuple[Step, ...]
    total_steps: int
    value: str
    decision: str | None
    visited: int
    values: Mapping[str, str]
    """The value the reference backs up at each drawn node it visits."""
    pruned: frozenset[str]
    """The drawn nodes the reference prunes."""


@dataclass(frozen=True, slots=True)
class StoredHidden:
    """The hidden-tree check of an analysed version."""

    trees: tuple[tuple[str, StoredTree], ...]
    rows: tuple[tuple[str, str, tuple[str, ...]], ...]
    error: str | None
    cut_short: str | None = None
    """Why the pool of catchers stopped early (a budget spent), if it did."""

    def uncaught(self) -> list[str]:
        """The wrong implementations no hidden tree catches."""
        return [name for name, _, caught in self.rows if not caught]


@dataclass(frozen=True, slots=True)
class AnalysisResult:
    """What a finished analysis found: the problems of a version that does not load, or
    its traces and hidden-tree check."""

    problems: tuple[Problem, ...]
    traces: tuple[StoredTrace, ...]
    hidden: StoredHidden | None

    def trace(self, name: str) -> StoredTrace | None:
        return next((trace for trace in self.traces if trace.name == name), None)

    def drawings(self) -> dict[str, StoredTree]:
        """Each public tree as kept for drawing, by name."""
        return {trace.name: trace.drawing for trace in self.traces}


def read_result(data: Mapping[str, Any]) -> AnalysisResult:
    """The result a finished analysis stored."""
    problems = tuple(
        Problem(p["file"], p["line"], p["column"], p["message"]) for p in data.get("problems", ())
    )
    traces = tuple(
        StoredTrace(
            name=item["name"],
            source=item["source"],
            nodes=item["nodes"],
            drawing=from_json(item["tree"]),
            steps=tuple(Step(*step) for step in item["steps"]),
            total_steps=item["total_steps"],
            value=item["value"],
            decision=item["decision"],
            visited=item["visited"],
            values=item["values"],
            pruned=frozenset(item["pruned"]),
        )
        for item in data.get("trees", ())
    )
    hidden = data.get("hidden")
    return AnalysisResult(
        problems,
        traces,
        None
        if hidden is None
        else StoredHidden(
            tuple((tree["name"], from_json(tree["tree"])) for tree in hidden["trees"]),
            tuple((name, bug, tuple(caught)) for name, bug, caught in hidden["rows"]),
            hidden.get("error"),
            hidden.get("cut_short"),
        ),
    )


_KEPT = 64
_results: OrderedDict[tuple[int, datetime | None], AnalysisResult] = OrderedDict()
_results_lock = threading.Lock()


def stored_result(session: Session, row: VersionAnalysis) -> AnalysisResult | None:
    """The result of a finished analysis (kept in memory for the next page, by version and
    finishing time), None while it is not done."""
    if row.state != AnalysisState.DONE:
        return None
    key = (row.version_id, row.finished_at)
    with _results_lock:
        hit = _results.get(key)
        if hit is not None:
            _results.move_to_end(key)
            return hit
    data = session.scalar(
        select(VersionAnalysis.result).where(VersionAnalysis.version_id == row.version_id)
    )
    result = read_result(data or {})
    with _results_lock:
        _results[key] = result
        while len(_results) > _KEPT:
            _results.popitem(last=False)
    return result


def result_for(
    session: Session, version: ExerciseVersion
) -> tuple[VersionAnalysis, AnalysisResult | None]:
    """A version's analysis as a page shows it (:func:`shown`) and its result when done;
    it only reads."""
    row = shown(session, version)
    return row, stored_result(session, row)


def under_way(session: Session, version_id: int) -> bool:
    """Whether a version's analysis is still to come: queued, running, to be made again in
    its current form, or not made yet (the reaper makes it). False once it is done or has
    failed."""
    found = analysis_of(session, version_id)
    if found is None or not _current(found):
        return True
    return found.state in (AnalysisState.QUEUED, AnalysisState.RUNNING)


def shown(session: Session, version: ExerciseVersion) -> VersionAnalysis:
    """A version's analysis row, or, when it has none or one of an older form, a queued one
    that is not stored: a page read never writes nor sends (the reaper makes the missing
    row and sends it, :func:`stuck_analyses`)."""
    found = analysis_of(session, version.id)
    if found is not None and _current(found):
        return found
    return VersionAnalysis(
        version_id=version.id, state=AnalysisState.QUEUED, stage="", progress=0.0, error=None
    )


def status(row: VersionAnalysis) -> dict[str, Any]:
    """An analysis's state as the status endpoint answers it."""
    return {
        "state": row.state,
        "stage": row.stage,
        "progress": round(row.progress, 3),
        "error": row.error,
        "done": row.state == AnalysisState.DONE,
    }
