"""Exercises in the database: versions are an exercise folder's files, by content hash.

A version is materialised once into ``instance_dir/versions/<hash>/<slug>/`` so that the
reference engine's loader reads it like any exercise folder.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.models import Course, Exercise, ExerciseVersion, User
from reference.caching import KeyedCache
from reference.exercises.catalog import load_catalog
from reference.exercises.loader import EXERCISE_FILE, load_exercise
from reference.exercises.model import Exercise as ExerciseModel
from reference.exercises.outline import Outline, check_exercise
from reference.problems import FileProblems, Problem, in_file_order

MAX_FILES = 50


def folder_files(folder: Path) -> dict[str, str]:
    """The files of an exercise folder (its YAML files, not its subfolders), name -> text."""
    return {
        path.name: path.read_text(encoding="utf-8")
        for path in sorted(folder.iterdir())
        if path.is_file() and path.suffix in (".yaml", ".yml")
    }


def content_hash(files: dict[str, str]) -> str:
    """A hash of the files' names and contents (the version's identity)."""
    canonical = json.dumps(sorted(files.items()), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _safe_name(name: str) -> bool:
    return bool(name) and "/" not in name and "\\" not in name and not name.startswith(".")


def check_files(slug: str, files: dict[str, str]) -> ExerciseModel | list[Problem]:
    """The exercise ``files`` define under ``slug``, or its problems (named by file name)."""
    # Without exercise.yaml nothing says which files are trees; past the file limit the
    # upload is not read at all (the limit protects the service): two genuine stops.
    if EXERCISE_FILE not in files:
        return [Problem(EXERCISE_FILE, 1, 1, "the exercise needs an exercise.yaml file")]
    if len(files) > MAX_FILES:
        return [Problem(EXERCISE_FILE, 1, 1, f"more than {MAX_FILES} files")]
    # A file with a name that is not plain is never written; the others are still checked.
    bad = [Problem(name, 1, 1, "not a plain file name") for name in files if not _safe_name(name)]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / slug
        _write(folder, {name: text for name, text in files.items() if _safe_name(name)})
        try:
            model = load_exercise(folder)
        except FileProblems as problems:
            prefix = str(folder) + "/"
            return in_file_order(
                bad
                + [
                    Problem(p.file.removeprefix(prefix), p.line, p.column, p.message)
                    for p in problems.problems
                ]
            )
    return bad or model


def check_outline(slug: str, files: dict[str, str]) -> Outline | list[Problem]:
    """The cheap check of ``files`` (what an upload request does): the outline of the
    exercise they define, or its problems; no game is expanded and no large tree searched
    (the version's analysis, in a worker, does the rest: :mod:`grader.services.analyses`).
    The same stops and file names as :func:`check_files`."""
    if EXERCISE_FILE not in files:
        return [Problem(EXERCISE_FILE, 1, 1, "the exercise needs an exercise.yaml file")]
    if len(files) > MAX_FILES:
        return [Problem(EXERCISE_FILE, 1, 1, f"more than {MAX_FILES} files")]
    bad = [Problem(name, 1, 1, "not a plain file name") for name in files if not _safe_name(name)]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / slug
        _write(folder, {name: text for name, text in files.items() if _safe_name(name)})
        try:
            outline = check_exercise(folder)
        except FileProblems as problems:
            return in_file_order(bad + relative_problems(problems.problems, folder))
    return bad or outline


def relative_problems(problems: list[Problem], folder: Path) -> list[Problem]:
    """``problems`` with their files named by file name rather than path in ``folder``."""
    prefix = str(folder) + "/"
    return [Problem(p.file.removeprefix(prefix), p.line, p.column, p.message) for p in problems]


def _write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def materialize(settings: Settings, slug: str, version: ExerciseVersion) -> Path:
    """The folder holding ``version``'s files (written on first use)."""
    folder = settings.instance_dir / "versions" / version.content_hash / slug
    if not folder.is_dir():
        staging = Path(tempfile.mkdtemp(dir=settings.instance_dir))
        _write(staging / slug, version.files)
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            (staging / slug).rename(folder)
        except OSError:
            if not folder.is_dir():  # not a concurrent writer that won the race
                raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return folder


_loaded: KeyedCache[tuple[str, str], ExerciseModel] = KeyedCache(64)
_outlines: KeyedCache[tuple[str, str], Outline] = KeyedCache(256)
"""Exercises and outlines by version content and slug: the same files load to the same
exercise whatever the course or folder, so that what the grading keeps per exercise (its
hidden-tree pool, the diagnosis's signatures) is made once for them all."""


def load_version(settings: Settings, slug: str, version: ExerciseVersion) -> ExerciseModel:
    """The reference engine's exercise of ``version``."""
    return _loaded.get(
        (version.content_hash, slug),
        lambda: load_exercise(materialize(settings, slug, version)),
    )


def load_materialized(content_hash: str, slug: str, folder: Path) -> ExerciseModel:
    """The exercise of the version whose files hash to ``content_hash``, written in
    ``folder`` (:func:`materialize`): the same object :func:`load_version` gives."""
    return _loaded.get((content_hash, slug), lambda: load_exercise(folder))


def outline_version(settings: Settings, slug: str, version: ExerciseVersion) -> Outline:
    """The outline of ``version`` (its rules and tree sources; no game expanded): what
    pages show of it without its analysis (FileProblems if it no longer passes)."""
    return _outlines.get(
        (version.content_hash, slug),
        lambda: check_exercise(materialize(settings, slug, version)),
    )


def save_version(
    session: Session,
    exercise: Exercise,
    files: dict[str, str],
    statement: str,
    user: User | None = None,
) -> ExerciseVersion:
    """The version holding ``files`` (an existing one when the content is the same)."""
    digest = content_hash(files)
    found = session.scalar(
        select(ExerciseVersion).where(
            ExerciseVersion.exercise_id == exercise.id, ExerciseVersion.content_hash == digest
        )
    )
    if found is not None:
        return found
    version = ExerciseVersion(
        exercise_id=exercise.id,
        content_hash=digest,
        files=files,
        statement=statement,
        created_by_id=None if user is None else user.id,
    )
    session.add(version)
    session.flush()
    return version


def import_library(session: Session, settings: Settings, course: Course) -> list[Exercise]:
    """Add (or update) every exercise of the library folder to ``course``, published.

    Each exercise gets the cheap check only (:func:`reference.exercises.outline.check_exercise`:
    no game expanded, no tree searched): the heavy work on a version is a worker's (see
    :mod:`grader.services.analyses`), and an import may run in a request (an LTI launch)."""
    imported = []
    for slug in load_catalog(settings.exercises_dir).slugs():
        model = check_exercise(settings.exercises_dir / slug)
        exercise = session.scalar(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
        )
        if exercise is None:
            exercise = Exercise(course_id=course.id, slug=slug, title=model.title)
            session.add(exercise)
            session.flush()
        files = folder_files(settings.exercises_dir / slug)
        version = save_version(session, exercise, files, model.statement)
        exercise.current_version_id = version.id
        exercise.title = model.title
        exercise.published = True
        imported.append(exercise)
    session.flush()
    return imported
