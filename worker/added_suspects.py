"""The implementations instructors added to an exercise's library, as the diagnosis of a
grading compares them (:class:`~reference.diagnosis.suspects.AddedSuspect`).

A suspect is an implementation that is active, checked against the very version being
graded, and caught by at least one tree (one no tree catches searches like the reference,
and the diagnosis could not tell it apart). Its signatures on the trees of its check are
read from its result; on any other tree (a fresh hidden tree of a draw) it runs in the
sandbox, like a student's code, never in this process.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session, undefer

from grader.models import AddedImplementation, AddedState, Exercise, ExerciseVersion
from reference.diagnosis import Signature
from reference.diagnosis.stored import signature_from_json
from reference.diagnosis.suspects import ADDED, AddedSuspect
from reference.exercises.model import Exercise as ExerciseModel
from reference.hidden.library import Misconception
from reference.tree import Tree
from worker.added_check import signature_of, spec_for
from worker.sandbox import SandboxOptions, SandboxUnavailable, run_sandboxed_trees

log = logging.getLogger(__name__)


def added_suspects(
    session: Session,
    exercise: Exercise,
    version: ExerciseVersion,
    model: ExerciseModel,
    options: SandboxOptions | None = None,
) -> list[AddedSuspect]:
    """The suspects ``exercise``'s instructors added, for a grading of ``version`` (whose
    exercise is ``model``), read in one query; ``options``: the sandbox's, for the runs on
    trees they were not checked on (under the exercise's own limits)."""
    rows = session.scalars(
        select(AddedImplementation)
        .options(undefer(AddedImplementation.result))
        .where(
            AddedImplementation.exercise_id == exercise.id,
            AddedImplementation.active.is_(True),
            AddedImplementation.state == AddedState.READY,
            AddedImplementation.version_id == version.id,
        )
        .order_by(AddedImplementation.stem)
    ).all()
    suspects = []
    for row in rows:
        result = row.result or {}
        trees = result.get("trees", [])
        if not any(tree.get("caught") for tree in trees):
            continue
        stored = {
            tree["key"]: signature_from_json(tree["signature"])
            for tree in trees
            if tree.get("signature") is not None
        }
        suspects.append(
            AddedSuspect(
                name=f"{ADDED}{row.stem}",
                told=Misconception(
                    name=row.name,
                    explanation=row.explanation,
                    pseudocode=row.pseudocode,
                    hint=row.hint,
                ),
                stored=stored,
                run=sandbox_runner(row.source, f"{row.stem}.py", model, options),
            )
        )
    return suspects


def sandbox_runner(
    source: str, filename: str, model: ExerciseModel, options: SandboxOptions | None
) -> Callable[[Tree], Signature | None]:
    """What runs ``source`` in the sandbox on one tree of ``model`` and gives its
    signature there (None where it did not run to an end of its own, or the sandbox could
    not run it: it then matches nothing there)."""

    def run(tree: Tree) -> Signature | None:
        try:
            records = run_sandboxed_trees(
                [(tree, spec_for(model, tree))], source, filename, model.limits, options=options
            )
        except SandboxUnavailable:
            log.warning("%s: the sandbox is unavailable; not compared on this tree", filename)
            return None
        return signature_of(records[0]) if records else None

    return run
