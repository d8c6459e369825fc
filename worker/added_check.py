"""Checking a wrong implementation an instructor added to an exercise's library.

It is the course's code, so it runs in the sandbox like a student's, never in this
process: once on the exercise's public trees and the hidden pool's catchers (one
:func:`run_sandboxed_trees` call), each completed run judged against the reference like a
grading. The row's ``result`` keeps, per tree, whether the tree catches it (its search
there differs from the reference's) and its signature there, which the diagnosis compares
students' searches with (:mod:`worker.added_suspects`). An implementation no tree catches
searches like the reference: it is ready but never a suspect.

:func:`check_source` is the check without the database; :func:`check_added` does it for a
row, as the Celery task ``check_added_implementation`` asks. A task for a done check does
nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sqlalchemy import update

from grader.config import Settings
from grader.db import Database
from grader.models import AddedImplementation, AddedState, Exercise, utcnow
from grader.services.exercise_store import load_version, materialize
from grader.services.hidden_keys import exercise_key
from reference.diagnosis import Signature, observed_signature
from reference.diagnosis.stored import signature_to_json, tree_key
from reference.exercises.model import Exercise as ExerciseModel
from reference.feedback import judge
from reference.problems import FileProblems
from reference.report import RunVerdict
from reference.search import SearchResult
from reference.stored_tree import to_json
from reference.tree import Tree
from reference.verdict_words import verdict_word
from worker.harness.local import entry_spec
from worker.harness.results import EntrySpec
from worker.sandbox import (
    RunRecord,
    SandboxOptions,
    SandboxUnavailable,
    SandboxVerdict,
    run_sandboxed_trees,
)
from worker.trees import prepared

log = logging.getLogger(__name__)

RESULT_FORMAT = 1
DRAWN_NODES = 60
"""Trees up to this size are kept for the page's drawing (the larger by name and size)."""
MESSAGE_LIMIT = 300


class TryAgain(Exception):
    """The sandbox could not run the check (unavailable here, or its own failure): the
    task sends it again later."""


@dataclass(frozen=True, slots=True)
class Checked:
    """What a check found: the result document, or why the implementation cannot be used
    (``problem``: it does not compile, or it completed no tree)."""

    result: dict[str, Any] | None = None
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class _Tree:
    name: str
    hidden: bool
    catcher: int | None
    tree: Tree
    reference: SearchResult | None


def spec_for(model: ExerciseModel, tree: Tree) -> EntrySpec:
    """How the sandbox calls an implementation on ``tree`` (no call lines: nobody reads
    them)."""
    spec = entry_spec(
        model.algorithm,
        model.entry_points,
        tree,
        model.options.depth_limit,
        contract=model.contract,
    )
    return replace(spec, call_lines=False)


def signature_of(record: RunRecord) -> Signature | None:
    """The signature of a sandboxed run: the search it completed, or, where it raised,
    the steps up to the error, marked failed (as a library implementation that raises);
    None where it did not run to an end of its own (a limit, the protocol)."""
    verdict = record.outcome.verdict
    if verdict is SandboxVerdict.COMPLETED:
        return observed_signature(record.observed)
    if verdict is SandboxVerdict.RUNTIME_ERROR:
        return replace(observed_signature(record.observed), failed=True)
    return None


def check_source(
    model: ExerciseModel,
    source: str,
    filename: str,
    *,
    key: bytes,
    exercises_dir: Path,
    options: SandboxOptions | None = None,
    seconds: float | None = None,
) -> Checked:
    """Run ``source`` in the sandbox on ``model``'s public trees and its hidden pool's
    catchers (under ``key``) and judge each run, in ``seconds`` of real time over all
    trees at most (None: the exercise's own budget for a submission). Raises
    :class:`TryAgain` when the sandbox cannot run it."""
    ready = prepared(model, key, exercises_dir)
    trees = [_Tree(case.name, False, None, case.tree, case.reference) for case in ready.public]
    trees += [
        _Tree(f"hidden tree {number}", True, catcher.index, catcher.tree,
              ready.catchers.get(catcher.index))
        for number, catcher in enumerate(ready.pool.catchers, start=1)
    ]  # fmt: skip
    runs = [(item.tree, spec_for(model, item.tree)) for item in trees]
    limits = model.limits
    if seconds is not None:
        limits = replace(
            limits,
            wall_seconds=min(limits.wall_seconds, seconds),
            submission_wall_seconds=min(limits.submission_budget, seconds),
        )
    try:
        records = run_sandboxed_trees(runs, source, filename, limits, options=options)
    except SandboxUnavailable as error:
        raise TryAgain(f"the sandbox is unavailable on this worker: {error}") from error
    if records and records[-1].outcome.verdict is SandboxVerdict.COMPILE_ERROR:
        outcome = records[-1].outcome
        return Checked(problem=f"it does not compile: {_positioned(outcome.message, outcome.line)}")
    if any(record.outcome.verdict is SandboxVerdict.INTERNAL_ERROR for record in records):
        raise TryAgain("the sandbox failed on a tree")
    rows = [
        _row(model, item, records[index] if index < len(records) else None)
        for index, item in enumerate(trees)
    ]
    completed = [row for row in rows if RunVerdict(row["verdict"]).is_judged]
    if not completed:
        # Every run raised or hit a limit: what happened on the first tree says why.
        first = rows[0]
        return Checked(
            problem=f"it completed no tree: {verdict_word(first['verdict'])} on "
            f"{first['name']}: {first['message']}"
        )
    public = [row for row in rows if not row["hidden"]]
    hidden = [row for row in rows if row["hidden"]]
    result = {
        "format": RESULT_FORMAT,
        "trees": rows,
        "public": len(public),
        "public_caught": sum(row["caught"] for row in public),
        "hidden": len(hidden),
        "hidden_caught": sum(row["caught"] for row in hidden),
        "completed": len(completed),
    }
    return Checked(result=result)


def _row(model: ExerciseModel, item: _Tree, record: RunRecord | None) -> dict[str, Any]:
    """One tree of the result: what the run did there and whether the tree catches it."""
    row: dict[str, Any] = {
        "name": item.name,
        "hidden": item.hidden,
        "catcher": item.catcher,
        "nodes": len(item.tree),
        "key": tree_key(item.tree),
        "drawing": to_json(item.tree) if len(item.tree) <= DRAWN_NODES else None,
        "verdict": RunVerdict.NOT_RUN.value,
        "caught": False,
        "signature": None,
        "message": None,
    }
    if record is None:
        row["message"] = "not run: an earlier tree hit a limit, or the time for all was spent"
        return row
    outcome = record.outcome
    if outcome.verdict is SandboxVerdict.COMPLETED:
        reference = item.reference or model.reference(item.tree)
        feedback = judge(item.tree, reference, record.observed, model.scoring)
        row["verdict"] = outcome.verdict.judged(feedback.perfect).value
        row["caught"] = not feedback.perfect
    else:
        # A grading fails a search that ends so: the tree catches it.
        row["verdict"] = outcome.verdict.judged(False).value
        row["caught"] = True
        row["message"] = _positioned(outcome.message, outcome.line)[:MESSAGE_LIMIT]
    signature = signature_of(record)
    row["signature"] = None if signature is None else signature_to_json(signature)
    return row


def _positioned(message: str, line: int | None) -> str:
    return f"{message} (line {line})" if line is not None else message


def check_added(
    database: Database,
    settings: Settings,
    added_id: int,
    *,
    last_try: bool = True,
    options: SandboxOptions | None = None,
) -> str:
    """Check added implementation ``added_id`` against its exercise's current version and
    store what was found; what happened, in words. Raises :class:`TryAgain` when the
    sandbox cannot run it, unless ``last_try`` (then the check fails, saying so)."""
    with database.session() as session:
        row = session.get(AddedImplementation, added_id)
        if row is None:
            return "no such implementation"
        if row.state != AddedState.CHECKING:
            return f"{row.state} already"
        exercise = session.get(Exercise, row.exercise_id)
        assert exercise is not None
        key = exercise_key(settings, exercise)
        version = exercise.current_version
        source, filename = row.source, f"{row.stem}.py"
        if version is None:
            return _store(database, added_id, None, Checked(problem="the exercise has no version"))
        slug, version_id = exercise.slug, version.id
        materialize(settings, slug, version)
        session.expunge(version)
    options = options or SandboxOptions(allow_unconfined=settings.sandbox_allow_unconfined)
    try:
        model = load_version(settings, slug, version)
        checked = check_source(
            model,
            source,
            filename,
            key=key,
            exercises_dir=settings.exercises_dir,
            options=options,
            # An instructor's code runs on the lane every course shares: its check takes
            # no more than the service allows, whatever the exercise's own limits.
            seconds=settings.added_check_seconds,
        )
    except TryAgain as error:
        if not last_try:
            raise
        log.error("added implementation %s: %s; no more tries", added_id, error)
        checked = Checked(problem=f"{error}: check it again later")
    except FileProblems:
        checked = Checked(problem="the exercise's current version does not load")
    except Exception as error:
        log.exception("the check of added implementation %s failed", added_id)
        checked = Checked(problem=f"the check itself failed ({type(error).__name__})")
    return _store(database, added_id, version_id, checked)


def _store(database: Database, added_id: int, version_id: int | None, checked: Checked) -> str:
    """Store what the check found, if the row still waits for it."""
    values: dict[str, Any] = {"version_id": version_id, "checked_at": utcnow()}
    if checked.result is not None:
        values.update(state=AddedState.READY, problem=None, result=checked.result)
    else:
        values.update(state=AddedState.FAILED, problem=checked.problem, result=None)
    with database.session() as session:
        stored = session.execute(
            update(AddedImplementation)
            .where(
                AddedImplementation.id == added_id,
                AddedImplementation.state == AddedState.CHECKING,
            )
            .values(**values)
        ).rowcount  # type: ignore[attr-defined]
    if not stored:
        return "another task stored its check"
    if checked.result is None:
        return f"failed: {checked.problem}"
    caught = checked.result["public_caught"] + checked.result["hidden_caught"]
    return f"ready: caught by {caught} of {len(checked.result['trees'])} trees"
