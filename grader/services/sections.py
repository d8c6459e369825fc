"""A course's sections (assignments, weeks) and the order of its exercises.

Sections are ordered by ``position``; exercises by ``position`` within their section (or
among the exercises in no section), then by title. Positions are renumbered 0, 1, 2...
whenever something moves, so "up" and "down" are swaps of neighbours. Every change is
written to the audit log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.models import Exercise, Section, User
from grader.services import audit

TITLE_LIMIT = 200
Item = TypeVar("Item")


class SectionProblem(Exception):
    """Bad input for a section (an empty title...); ``message`` says what."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def course_sections(session: Session, course_id: int) -> list[Section]:
    """The sections of course ``course_id``, in order."""
    return list(
        session.scalars(
            select(Section)
            .where(Section.course_id == course_id)
            .order_by(Section.position, Section.id)
        )
    )


def exercise_order(exercise: Exercise) -> tuple[int, str, int]:
    """The key exercises are listed by within a section."""
    return (exercise.position, exercise.title.casefold(), exercise.id)


@dataclass
class Group(Generic[Item]):
    """One section's items (``section`` None: the exercises in no section)."""

    section: Section | None
    items: list[Item] = field(default_factory=list)


def grouped(
    sections: Sequence[Section], items: Sequence[Item], exercise: Callable[[Item], Exercise]
) -> list[Group[Item]]:
    """``items`` (exercises, or rows naming one: ``exercise(item)``) in groups: each section
    in order (empty ones too), then the items in no section; each group in exercise order."""
    groups = {section.id: Group[Item](section) for section in sections}
    loose = Group[Item](None)
    for item in items:
        section_id = exercise(item).section_id
        group = groups.get(section_id, loose) if section_id is not None else loose
        group.items.append(item)
    result = [*groups.values(), loose]
    for group in result:
        group.items.sort(key=lambda item: exercise_order(exercise(item)))
    return result


def _clean_title(title: str) -> str:
    cleaned = " ".join(title.split())
    if not cleaned:
        raise SectionProblem("give the section a title")
    if len(cleaned) > TITLE_LIMIT:
        raise SectionProblem(f"a section's title has at most {TITLE_LIMIT} characters")
    return cleaned


def create(session: Session, actor: User, course_id: int, title: str) -> Section:
    """A new section at the end of the course's (flushed)."""
    cleaned = _clean_title(title)
    last = session.scalar(select(func.max(Section.position)).where(Section.course_id == course_id))
    section = Section(course_id=course_id, title=cleaned, position=(last or 0) + 1)
    session.add(section)
    session.flush()
    _renumber(course_sections(session, course_id))
    audit.record(session, actor, course_id, "section.create", section_id=section.id, title=cleaned)
    return section


def rename(session: Session, actor: User, section: Section, title: str) -> None:
    cleaned = _clean_title(title)
    before = section.title
    section.title = cleaned
    audit.record(
        session,
        actor,
        section.course_id,
        "section.rename",
        section_id=section.id,
        before=before,
        after=cleaned,
    )


def move(session: Session, actor: User, section: Section, step: int) -> bool:
    """Move ``section`` one place up (``step`` -1) or down (+1); False at either end."""
    ordered = course_sections(session, section.course_id)
    moved = _swap(ordered, section, step)
    if moved:
        audit.record(
            session,
            actor,
            section.course_id,
            "section.move",
            section_id=section.id,
            title=section.title,
            after=section.position,
        )
    return moved


def delete_section(session: Session, actor: User, section: Section) -> list[int]:
    """Delete ``section``; its exercises go to the end of those in no section. Returns
    their ids."""
    moved = list(session.scalars(select(Exercise).where(Exercise.section_id == section.id)))
    loose = _members(session, section.course_id, None)
    moved.sort(key=exercise_order)
    for exercise in moved:
        exercise.section_id = None
    _renumber([*loose, *moved])
    audit.record(
        session,
        actor,
        section.course_id,
        "section.delete",
        section_id=section.id,
        title=section.title,
        exercises=[exercise.id for exercise in moved],
    )
    session.delete(section)
    session.flush()
    _renumber(course_sections(session, section.course_id))
    return [exercise.id for exercise in moved]


def assign(session: Session, actor: User, exercise: Exercise, section: Section | None) -> None:
    """Put ``exercise`` at the end of ``section`` (None: no section)."""
    if section is not None and section.course_id != exercise.course_id:
        raise SectionProblem("that section is in another course")
    target = None if section is None else section.id
    if exercise.section_id == target:
        return
    before = exercise.section_id
    left = [item for item in _members(session, exercise.course_id, before) if item is not exercise]
    joined = [
        item for item in _members(session, exercise.course_id, target) if item is not exercise
    ]
    exercise.section_id = target
    _renumber(left)
    _renumber([*joined, exercise])
    audit.record(
        session,
        actor,
        exercise.course_id,
        "exercise.section",
        exercise_id=exercise.id,
        before=before,
        after=target,
    )


def move_exercise(session: Session, actor: User, exercise: Exercise, step: int) -> bool:
    """Move ``exercise`` one place up (-1) or down (+1) in its section; False at an end."""
    ordered = _members(session, exercise.course_id, exercise.section_id)
    moved = _swap(ordered, exercise, step)
    if moved:
        audit.record(
            session,
            actor,
            exercise.course_id,
            "exercise.move",
            exercise_id=exercise.id,
            section_id=exercise.section_id,
            after=exercise.position,
        )
    return moved


def _members(session: Session, course_id: int, section_id: int | None) -> list[Exercise]:
    """The exercises of one section of a course (None: in no section), in order."""
    in_section = (
        Exercise.section_id.is_(None) if section_id is None else Exercise.section_id == section_id
    )
    found = list(
        session.scalars(select(Exercise).where(Exercise.course_id == course_id, in_section))
    )
    found.sort(key=exercise_order)
    return found


Ordered = TypeVar("Ordered", Section, Exercise)


def _swap(ordered: list[Ordered], item: Ordered, step: int) -> bool:
    index = next(i for i, candidate in enumerate(ordered) if candidate is item)
    other = index + (1 if step > 0 else -1)
    if not 0 <= other < len(ordered):
        _renumber(ordered)
        return False
    ordered[index], ordered[other] = ordered[other], ordered[index]
    _renumber(ordered)
    return True


def _renumber(ordered: Sequence[Section | Exercise]) -> None:
    for position, item in enumerate(ordered):
        item.position = position
