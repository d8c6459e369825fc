"""The exercise a launch asks for: one of the course's, or one brought in from the library."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.models import Course, Exercise
from grader.services.exercise_store import folder_files, save_version
from reference.exercises.catalog import Catalog, load_catalog
from reference.problems import FileProblems


def _in_course(session: Session, course: Course, slug: str) -> Exercise | None:
    return session.scalar(
        select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
    )


def _titled(session: Session, course: Course, title: str) -> Exercise | None:
    return session.scalar(
        select(Exercise)
        .where(Exercise.course_id == course.id, func.lower(Exercise.title) == title.lower())
        .order_by(Exercise.id)
        .limit(1)
    )


def _library_slug(catalog: Catalog, title: str) -> str | None:
    """The slug of the library exercise whose title is ``title`` (any case)."""
    wanted = title.strip().casefold()
    for slug in catalog.slugs():
        loaded = catalog.load(slug)
        if not isinstance(loaded, FileProblems) and loaded.title.strip().casefold() == wanted:
            return slug
    return None


def import_one(session: Session, settings: Settings, course: Course, slug: str) -> Exercise | None:
    """The library's exercise ``slug`` added to ``course``, published (None: not in the
    library, or broken there)."""
    catalog = load_catalog(settings.exercises_dir)
    if slug not in catalog.slugs():
        return None
    model = catalog.load(slug)
    if isinstance(model, FileProblems):
        return None
    exercise = Exercise(course_id=course.id, slug=slug, title=model.title, published=True)
    session.add(exercise)
    session.flush()
    files = folder_files(settings.exercises_dir / slug)
    version = save_version(session, exercise, files, model.statement)
    exercise.current_version_id = version.id
    session.flush()
    return exercise


def find_exercise(
    session: Session, settings: Settings, course: Course, slug: str | None, title: str | None
) -> Exercise | None:
    """The exercise named by ``slug`` (a custom parameter) or else by ``title`` (the resource
    link's): the course's own first, then the library's, imported into the course."""
    if slug:
        return _in_course(session, course, slug) or import_one(session, settings, course, slug)
    if not title:
        return None
    found = _in_course(session, course, title) or _titled(session, course, title)
    if found is not None:
        return found
    catalog = load_catalog(settings.exercises_dir)
    library_slug = title if title in catalog.slugs() else _library_slug(catalog, title)
    if library_slug is None:
        return None
    return _in_course(session, course, library_slug) or import_one(
        session, settings, course, library_slug
    )
