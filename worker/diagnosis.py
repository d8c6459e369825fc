"""The diagnosis a grading adds to a failed search's report (see :mod:`reference.diagnosis`).

Each tree the student's search completed in the sandbox is compared with the library's
wrong implementations run in process on it (the course's own code). A diagnosis is a help,
not the grade: if it fails, it is logged and left out, and the grading goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from reference.diagnosis import diagnose, observed_signature
from reference.diagnosis.suspects import AddedSuspect
from reference.exercises.model import Exercise
from reference.hidden.library import Implementation
from reference.report import DiagnosisReport
from reference.search import SearchResult
from reference.tree import Tree
from worker.sandbox import RunRecord, SandboxVerdict

log = logging.getLogger(__name__)


def diagnosis_of(
    exercise: Exercise,
    library: Sequence[Implementation],
    graded: Sequence[tuple[str, bool, Tree, RunRecord]],
    *,
    references: Mapping[str, SearchResult] | None = None,
    added: Sequence[AddedSuspect] = (),
) -> DiagnosisReport | None:
    """The report's ``diagnosis`` of a search that did not pass: ``graded`` holds each
    tree's name, whether it is hidden, the tree and the sandbox's record of the run (only
    completed runs count); ``references``, the reference search of trees the grading
    holds, by name; ``added``, the wrong implementations the exercise's instructors added.
    None when no tree completed, the search agrees with the reference where it completed,
    or the diagnosis failed (logged)."""
    try:
        completed = [item for item in graded if item[3].outcome.verdict is SandboxVerdict.COMPLETED]
        signatures = {name: observed_signature(record.observed) for name, _, _, record in completed}
        trees = {name: tree for name, _, tree, _ in completed}
        hidden = {name for name, is_hidden, _, _ in completed if is_hidden}
        found = diagnose(
            signatures,
            trees,
            exercise,
            library,
            hidden=hidden,
            references=references,
            added=added,
        )
        return None if found is None else found.report()
    except Exception:
        log.exception("%s: the diagnosis failed; the report goes without one", exercise.slug)
        return None
