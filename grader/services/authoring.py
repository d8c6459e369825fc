"""Instructors' exercises: uploading an exercise folder as a draft version, its reference
trace step by step, the hidden-tree check, publishing (who may: grader.services.permissions).

Plain functions over a session; the instructor pages call them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.models import Course, Exercise, ExerciseVersion, Submission, User
from grader.models.submissions import SubmissionKind
from grader.services.exercise_store import (
    check_outline,
    save_version,
)
from reference.caching import IdentityCache
from reference.exercises.loader import SLUG_PATTERN
from reference.exercises.model import Exercise as ExerciseModel
from reference.hidden import LIBRARY_FOLDER, load_library, reference_judge, wrong_for
from reference.hidden.pools import reference_pool
from reference.hidden.selection import catch_table, select_hidden_trees
from reference.problems import Problem
from reference.search import SearchOptions
from reference.search.trace import Backup, Cutoff, Enter, Evaluate, Return
from reference.tree import Tree

MAX_STEPS = 2000
"""Trace steps shown per tree (a tree of a million nodes has millions of events)."""


# Who may see and change a course: grader.services.permissions.


@dataclass(frozen=True, slots=True)
class ExerciseRow:
    """One exercise on the teaching overview."""

    exercise: Exercise
    version_hash: str | None
    """The current version's content hash, None for a draft never published."""
    versions: int
    latest_version_id: int | None
    submissions: int


def course_exercises(session: Session, course: Course) -> list[ExerciseRow]:
    """The exercises of ``course`` (published or not) with their figures, by slug."""
    exercises = session.scalars(
        select(Exercise).where(Exercise.course_id == course.id).order_by(Exercise.slug)
    ).all()
    ids = [exercise.id for exercise in exercises]
    submissions = dict(
        session.execute(
            select(Submission.exercise_id, func.count())
            .where(Submission.exercise_id.in_(ids), Submission.kind == SubmissionKind.ATTEMPT)
            .group_by(Submission.exercise_id)
        ).all()
    )
    versions = {
        exercise_id: (count, latest)
        for exercise_id, count, latest in session.execute(
            select(ExerciseVersion.exercise_id, func.count(), func.max(ExerciseVersion.id))
            .where(ExerciseVersion.exercise_id.in_(ids))
            .group_by(ExerciseVersion.exercise_id)
        ).all()
    }
    return [
        ExerciseRow(
            exercise,
            None if exercise.current_version is None else exercise.current_version.content_hash,
            versions.get(exercise.id, (0, None))[0],
            versions.get(exercise.id, (0, None))[1],
            submissions.get(exercise.id, 0),
        )
        for exercise in exercises
    ]


# Uploading.


def decode_upload(name: str, data: bytes) -> str | Problem:
    """The text of an uploaded file, or a problem naming it (binary, not UTF-8)."""
    if b"\0" in data:
        return Problem(name, 1, 1, "this is a binary file (it holds NUL bytes), not YAML text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        return Problem(
            name,
            line,
            column,
            f"this file is not UTF-8 text (byte 0x{data[error.start]:02x}); "
            "save it as UTF-8 and upload it again",
        )


def slug_problem(slug: str) -> str | None:
    """Why ``slug`` cannot name an exercise, or None."""
    if not slug:
        return "give the exercise a slug"
    if len(slug) > 100:
        return "the slug is longer than 100 characters"
    if not SLUG_PATTERN.match(slug):
        return "the slug may hold lower-case letters, digits, '.' and '-', starting with a letter"
    return None


@dataclass(frozen=True, slots=True)
class Uploaded:
    """A saved draft version: its exercise (new or existing) and whether it is new."""

    exercise: Exercise
    version: ExerciseVersion
    created: bool
    """False when the same files were uploaded before (the same version)."""


def upload(
    session: Session, course: Course, slug: str, files: Mapping[str, str], user: User | None
) -> Uploaded | list[Problem]:
    """Check ``files`` as the folder of exercise ``slug`` (the cheap check: no game is
    expanded, the version's analysis does that in a worker) and save them as a draft
    version of the course's exercise ``slug`` (made unpublished when new); or every
    problem found."""
    checked = check_outline(slug, dict(files))
    if isinstance(checked, list):
        return checked
    exercise = session.scalar(
        select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
    )
    if exercise is None:
        exercise = Exercise(
            course_id=course.id, slug=slug, title=checked.title[:200], published=False
        )
        session.add(exercise)
        session.flush()
    before = session.scalar(
        select(func.count())
        .select_from(ExerciseVersion)
        .where(ExerciseVersion.exercise_id == exercise.id)
    )
    version = save_version(session, exercise, dict(files), checked.statement, user)
    after = session.scalar(
        select(func.count())
        .select_from(ExerciseVersion)
        .where(ExerciseVersion.exercise_id == exercise.id)
    )
    return Uploaded(exercise, version, created=after != before)


def publish(exercise: Exercise, version: ExerciseVersion, title: str) -> None:
    """Make ``version`` the one students see and submit to."""
    exercise.current_version_id = version.id
    exercise.published = True
    exercise.title = title[:200]


# The reference trace, step by step.


@dataclass(frozen=True, slots=True)
class Step:
    """One event of the reference search: the node it is about, and what happened."""

    node: str
    kind: str
    """enter, evaluate, backup, cutoff or return."""
    text: str
    depth: int


@dataclass(frozen=True, slots=True)
class TreeTrace:
    """A public tree with the reference search's steps and its outcome."""

    name: str
    source: str
    tree: Tree
    steps: tuple[Step, ...]
    total_steps: int
    value: str
    decision: str | None
    visited: int
    values: Mapping[str, str]
    pruned: frozenset[str]


_KINDS = {
    Enter: "enter",
    Evaluate: "evaluate",
    Backup: "backup",
    Cutoff: "cutoff",
    Return: "return",
}


def reference_traces(model: ExerciseModel) -> list[TreeTrace]:
    """The reference search of every public tree as steps (``grader exercises trace``)."""
    from reference.values import format_value

    traces = []
    for entry in model.trees:
        result = model.reference(entry)
        depth: dict[str, int] = {}
        steps: list[Step] = []
        for event in result.trace.events[:MAX_STEPS]:
            if isinstance(event, Enter):
                depth[event.node] = event.depth
            steps.append(
                Step(event.node, _KINDS[type(event)], event.describe(), depth.get(event.node, 0))
            )
        pruned: set[str] = set()
        for name in result.trace.pruned():
            pruned |= _subtree(entry.tree, name)
        traces.append(
            TreeTrace(
                name=entry.name,
                source=entry.source,
                tree=entry.tree,
                steps=tuple(steps),
                total_steps=len(result.trace),
                value=format_value(result.value),
                decision=result.decision,
                visited=len(result.trace.visited()),
                values={name: format_value(v) for name, v in result.trace.values().items()},
                pruned=frozenset(pruned),
            )
        )
    return traces


def _subtree(tree: Tree, name: str) -> set[str]:
    found: set[str] = set()
    stack = [name]
    while stack:
        current = stack.pop()
        found.add(current)
        stack.extend(child.name for child in tree.children(current))
    return found


def conventions(options: SearchOptions) -> str:
    """The search conventions in words."""
    rule = "prune on equality (v >= beta)" if options.prune_on_equality else "strict (v > beta)"
    order = options.order if options.order_judged else "any order"
    text = f"{rule}, {order}"
    if options.depth_limit is not None:
        text += f", depth limit {options.depth_limit}"
    if options.generation == "generated":
        text += ", states counted when generated"
    return text


# The hidden-tree check.


@dataclass(frozen=True, slots=True)
class HiddenCheck:
    """Which hidden tree catches which wrong implementation of the library."""

    trees: tuple[tuple[str, Tree], ...]
    rows: tuple[tuple[str, str, tuple[str, ...]], ...]
    """(implementation, its bug, names of the hidden trees that catch it)."""
    cut_short: str | None = None
    """Why the pool of catchers stopped early (a budget spent), if it did."""

    def uncaught(self) -> list[str]:
        """The wrong implementations no hidden tree catches."""
        return [name for name, _, caught in self.rows if not caught]


_checked: IdentityCache[dict[tuple[bytes, str], HiddenCheck]] = IdentityCache(32)
"""Each exercise's hidden-tree check, by key and library folder (it judges every wrong
implementation on the drawn trees: a version's analysis, and every version of the same
files, need it once)."""


def check_hidden(model: ExerciseModel, exercises_dir: Path, key: bytes) -> HiddenCheck:
    """The hidden trees of ``model`` under ``key`` and what each one catches of the
    library's wrong implementations (the analysis of a version runs it in a worker)."""
    checks = _checked.get(dict, model)
    slot = (key, str(exercises_dir))
    found = checks.get(slot)
    if found is None:
        found = checks.setdefault(slot, _check_hidden(model, exercises_dir, key))
    return found


def _check_hidden(model: ExerciseModel, exercises_dir: Path, key: bytes) -> HiddenCheck:
    library = load_library(exercises_dir / LIBRARY_FOLDER)
    wrong = wrong_for(model, library)
    bugs = {
        item.name: item.bug or (f"correct only with {item.pruning} pruning" if item.pruning else "")
        for item in library
        if item.name in wrong
    }
    fails = reference_judge(model)
    pool = reference_pool(model, key, wrong)
    selection = select_hidden_trees(model, key, wrong, fails, pool=pool)
    table = catch_table(selection.trees, wrong, fails)
    rows = tuple(
        (
            name,
            bugs.get(name, ""),
            tuple(tree for tree, hit in zip(table.trees, caught, strict=True) if hit),
        )
        for name, caught in table.rows
    )
    trees = tuple((tree.name, tree.tree) for tree in selection.trees)
    return HiddenCheck(trees, rows, pool.cut_short)


__all__ = [
    "MAX_STEPS",
    "ExerciseRow",
    "HiddenCheck",
    "Step",
    "TreeTrace",
    "Uploaded",
    "check_hidden",
    "conventions",
    "course_exercises",
    "decode_upload",
    "publish",
    "reference_traces",
    "slug_problem",
    "upload",
]
