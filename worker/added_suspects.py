"""The implementations instructors added to an exercise's library, as the diagnosis of a
grading compares them (:class:`~reference.diagnosis.suspects.AddedSuspect`).

A suspect is an implementation that is active, checked against the very version being
graded, and caught by at least one tree (one no tree catches searches like the reference,
and the diagnosis could not tell it apart). Its signatures on the trees of its check are
read from its result; on any other tree (a fresh hidden tree of a draw) it runs in the
sandbox, like a student's code, never in this process.

It is an instructor's code, and an instructor is trusted with their own course only: its
runs are paid from an :class:`AddedBudget`, never from the student's limits nor from the
fast lane every course shares. In the fast lane the budget is nothing: a diagnosis that
would run an added implementation marks the grading ``wanted`` instead, and the run goes to
the slow lane, where its course's budget (``Settings.added_seconds_per_grading`` of real
time in all, per grading) pays for them; once that is spent, the suspects it cannot pay
for are left out of the diagnosis, and the log says so.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from sqlalchemy import select
from sqlalchemy.orm import Session, undefer

from grader.models import AddedImplementation, AddedState, Exercise, ExerciseVersion
from reference.diagnosis import Signature
from reference.diagnosis.stored import signature_from_json
from reference.diagnosis.suspects import ADDED, AddedSuspect, NotCompared
from reference.exercises.model import Exercise as ExerciseModel
from reference.exercises.model import Limits
from reference.hidden.library import MisconceptionText
from reference.tree import Tree
from worker.added_check import signature_of, spec_for
from worker.sandbox import SandboxOptions, SandboxUnavailable, run_sandboxed_trees

log = logging.getLogger(__name__)


SMALLEST_RUN_SECONDS = 0.05
"""A run is not started with less of the budget left than this: it could not end."""


@dataclass(slots=True)
class AddedBudget:
    """The real time the added implementations may take in one grading, and what asking
    for more did. ``seconds`` 0 is the fast lane's: nothing is run, and ``wanted`` says a
    run was asked for."""

    seconds: float
    spent: float = 0.0
    wanted: bool = False
    left_out: list[str] = field(default_factory=list)

    @property
    def left(self) -> float:
        return max(0.0, self.seconds - self.spent)

    def limits(self, limits: Limits) -> Limits | None:
        """``limits`` cut to what is left of the budget; None when too little is left."""
        left = self.left
        if left < SMALLEST_RUN_SECONDS:
            return None
        return replace(
            limits,
            cpu_seconds=min(limits.cpu_seconds, left),
            wall_seconds=min(limits.wall_seconds, left),
            submission_wall_seconds=min(limits.submission_budget, left),
        )


def added_suspects(
    session: Session,
    exercise: Exercise,
    version: ExerciseVersion,
    model: ExerciseModel,
    options: SandboxOptions | None = None,
    budget: AddedBudget | None = None,
) -> list[AddedSuspect]:
    """The suspects ``exercise``'s instructors added, for a grading of ``version`` (whose
    exercise is ``model``), read in one query; ``options``: the sandbox's, for the runs on
    trees they were not checked on, paid from ``budget`` (None: no run at all, only the
    stored signatures are compared)."""
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
                told=MisconceptionText(
                    name=row.name,
                    explanation=row.explanation,
                    pseudocode=row.pseudocode,
                    hint=row.hint,
                ),
                stored=stored,
                run=None
                if budget is None
                else sandbox_runner(row.source, f"{row.stem}.py", model, options, budget),
            )
        )
    return suspects


def sandbox_runner(
    source: str,
    filename: str,
    model: ExerciseModel,
    options: SandboxOptions | None,
    budget: AddedBudget,
) -> Callable[[Tree], Signature | None]:
    """What runs ``source`` in the sandbox on one tree of ``model``, paid from ``budget``,
    and gives its signature there (None where it did not run to an end of its own or the
    sandbox could not run it: it then matches nothing there). Where the budget cannot
    pay, :class:`NotCompared`: the suspect is left out of the diagnosis."""

    def run(tree: Tree) -> Signature | None:
        if budget.seconds <= 0:
            budget.wanted = True
            raise NotCompared(filename)
        limits = budget.limits(model.limits)
        if limits is None:
            if filename not in budget.left_out:
                budget.left_out.append(filename)
                log.warning(
                    "%s left out of the diagnosis: the %.1f s its course's added "
                    "implementations may take per grading are spent",
                    filename,
                    budget.seconds,
                )
            raise NotCompared(filename)
        began = time.perf_counter()
        try:
            records = run_sandboxed_trees(
                [(tree, spec_for(model, tree))], source, filename, limits, options=options
            )
        except SandboxUnavailable:
            log.warning("%s: the sandbox is unavailable; not compared on this tree", filename)
            return None
        finally:
            budget.spent += time.perf_counter() - began
        return signature_of(records[0]) if records else None

    return run
