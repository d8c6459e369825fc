"""An exercise's life (draft, published, hidden, archived, deleted) and a course's sections
and order: the rules of the services, and the audit events they leave."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.models import (
    AuditEvent,
    Course,
    Exercise,
    ExerciseStatus,
    ExerciseVersion,
    Role,
    Section,
)
from grader.models.submissions import SubmissionKind
from grader.services import lifecycle, permissions, sections
from grader.services.exercise_store import load_version
from grader.services.submissions import SubmissionRefused, submit
from tests.grader.conftest import Backend, UserFactory

SLUG = "aima-fig5.2-alphabeta"


def _exercise(session: Session, course: Course, slug: str = SLUG) -> Exercise:
    return session.scalars(
        select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
    ).one()


def _actions(session: Session, course: Course) -> list[str]:
    return list(
        session.scalars(
            select(AuditEvent.action)
            .where(AuditEvent.course_id == course.id)
            .order_by(AuditEvent.id)
        )
    )


def test_a_student_sees_each_status_as_the_rules_say() -> None:
    exercise = Exercise(status=ExerciseStatus.PUBLISHED, current_version_id=1)
    seen = {}
    for status in ExerciseStatus:
        exercise.status = status
        seen[status] = (
            permissions.may_see_exercise(exercise, Role.STUDENT),
            permissions.may_see_exercise(exercise, Role.STUDENT, submitted=True),
            permissions.may_see_exercise(exercise, Role.INSTRUCTOR),
            permissions.may_submit_to(exercise),
        )
    assert seen == {
        "draft": (False, False, True, False),
        "published": (True, True, True, True),
        "hidden": (False, False, True, False),
        "archived": (False, True, True, False),
    }
    assert not permissions.may_see_exercise(exercise, None)


def test_statuses_move_as_allowed_and_each_move_is_audited(backend: Backend) -> None:
    teacher, student = backend.user(Role.INSTRUCTOR), backend.user()
    with backend.database.session() as session:
        exercise = _exercise(session, backend.course)
        for status in ("hidden", "archived", "published", "draft", "published"):
            lifecycle.set_status(session, teacher, exercise, ExerciseStatus(status))
        submit(session, backend.settings, student, exercise, "a.py", "x = 1\n")
        with pytest.raises(lifecycle.LifecycleRefused, match="1 attempt on it"):
            lifecycle.set_status(session, teacher, exercise, ExerciseStatus.DRAFT)
        with pytest.raises(lifecycle.LifecycleRefused, match="published already"):
            lifecycle.set_status(session, teacher, exercise, ExerciseStatus.PUBLISHED)
        events = session.scalars(
            select(AuditEvent).where(AuditEvent.exercise_id == exercise.id).order_by(AuditEvent.id)
        ).all()
    assert [(e.action, e.details["before"], e.details["after"]) for e in events] == [
        ("exercise.status", "published", "hidden"),
        ("exercise.status", "hidden", "archived"),
        ("exercise.status", "archived", "published"),
        ("exercise.status", "published", "draft"),
        ("exercise.status", "draft", "published"),
    ]
    assert {event.actor_id for event in events} == {teacher.id}


def test_a_draft_never_published_cannot_be_hidden_or_archived(
    database: Database, course: Course, make_user: UserFactory
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    with database.session() as session:
        draft = Exercise(course_id=course.id, slug="new-one", title="New one")
        session.add(draft)
        session.flush()
        for status in (ExerciseStatus.HIDDEN, ExerciseStatus.ARCHIVED, ExerciseStatus.PUBLISHED):
            with pytest.raises(lifecycle.LifecycleRefused, match="publish a version first"):
                lifecycle.set_status(session, teacher, draft, status)


def test_hidden_and_archived_exercises_take_no_submission(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    student = make_user(course=course)
    with database.session() as session:
        exercise = _exercise(session, course)
        for status in (ExerciseStatus.HIDDEN, ExerciseStatus.ARCHIVED, ExerciseStatus.DRAFT):
            exercise.status = status
            for kind in SubmissionKind:
                with pytest.raises(SubmissionRefused, match="not open"):
                    submit(session, settings, student, exercise, "a.py", "x = 1\n", kind=kind)


def test_only_an_exercise_nobody_submitted_to_is_deleted(backend: Backend) -> None:
    teacher, student = backend.user(Role.INSTRUCTOR), backend.user()
    with backend.database.session() as session:
        checked = _exercise(session, backend.course)
        submit(
            session,
            backend.settings,
            student,
            checked,
            "a.py",
            "x = 1\n",
            kind=SubmissionKind.CHECK,
        )
        with pytest.raises(lifecycle.LifecycleRefused, match="1 check on it"):
            lifecycle.delete_exercise(session, teacher, checked)
        untouched = _exercise(session, backend.course, "aima-fig5.2-minimax")
        untouched_id = untouched.id
        lifecycle.delete_exercise(session, teacher, untouched)
    with backend.database.session() as session:
        assert session.get(Exercise, untouched_id) is None
        assert (
            session.scalars(
                select(ExerciseVersion).where(ExerciseVersion.exercise_id == untouched_id)
            ).all()
            == []
        )
        assert session.get(Exercise, checked.id) is not None
        event = session.scalars(
            select(AuditEvent).where(
                AuditEvent.course_id == backend.course.id, AuditEvent.action == "exercise.delete"
            )
        ).one()
        assert event.details["slug"] == "aima-fig5.2-minimax"


def test_publishing_a_version_keeps_a_hidden_exercise_hidden(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    with database.session() as session:
        exercise = _exercise(session, course)
        version = exercise.current_version
        assert version is not None
        model = load_version(settings, exercise.slug, version)
        exercise.status = ExerciseStatus.HIDDEN
        lifecycle.publish_version(session, teacher, exercise, version, model.title)
        assert exercise.status == ExerciseStatus.HIDDEN
        exercise.status = ExerciseStatus.DRAFT
        lifecycle.publish_version(session, teacher, exercise, version, model.title)
        assert exercise.status == ExerciseStatus.PUBLISHED
        assert _actions(session, course) == ["exercise.publish", "exercise.publish"]


# Sections and order.


def _titles(session: Session, course: Course) -> list[tuple[str | None, list[str]]]:
    exercises = session.scalars(select(Exercise).where(Exercise.course_id == course.id)).all()
    return [
        (None if group.section is None else group.section.title, [e.slug for e in group.items])
        for group in sections.grouped(
            sections.course_sections(session, course.id), exercises, lambda exercise: exercise
        )
    ]


def test_sections_are_made_renamed_moved_and_deleted_in_order(
    database: Database, course: Course, make_user: UserFactory
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    with database.session() as session:
        week1 = sections.create(session, teacher, course.id, "  Week 1 ")
        week2 = sections.create(session, teacher, course.id, "Week 2")
        week3 = sections.create(session, teacher, course.id, "Week 3")
        assert week1.title == "Week 1"
        assert sections.move(session, teacher, week3, -1)
        assert not sections.move(session, teacher, week1, -1)
        sections.rename(session, teacher, week2, "Week two")
        ordered = [s.title for s in sections.course_sections(session, course.id)]
        assert ordered == ["Week 1", "Week 3", "Week two"]
        with pytest.raises(sections.SectionProblem, match="title"):
            sections.rename(session, teacher, week2, "   ")
        with pytest.raises(sections.SectionProblem, match="at most 200"):
            sections.create(session, teacher, course.id, "x" * 201)
        sections.delete_section(session, teacher, week3)
        assert [s.position for s in sections.course_sections(session, course.id)] == [0, 1]
        assert _actions(session, course) == [
            "section.create",
            "section.create",
            "section.create",
            "section.move",
            "section.rename",
            "section.delete",
        ]


def test_exercises_move_between_sections_and_up_and_down(
    database: Database, course: Course, make_user: UserFactory
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    with database.session() as session:
        slugs = sorted(e.slug for e in session.scalars(select(Exercise)))[:4]
        a, b, c, d = (_exercise(session, course, slug) for slug in slugs)
        week = sections.create(session, teacher, course.id, "Week 1")
        for exercise in (c, a, b):
            sections.assign(session, teacher, exercise, week)
        assert _titles(session, course)[0] == ("Week 1", [c.slug, a.slug, b.slug])
        assert sections.move_exercise(session, teacher, b, -1)
        assert not sections.move_exercise(session, teacher, c, -1)
        assert _titles(session, course)[0] == ("Week 1", [c.slug, b.slug, a.slug])
        loose_before = _titles(session, course)[1][1]
        assert d.slug in loose_before

        moved = sections.delete_section(session, teacher, week)

        assert sorted(moved) == sorted([a.id, b.id, c.id])
        (loose,) = _titles(session, course)
        # The section's exercises follow the others in no section, in their order.
        assert loose == (None, [*loose_before, c.slug, b.slug, a.slug])
        assert "exercise.section" in _actions(session, course)
        assert "exercise.move" in _actions(session, course)


def test_an_exercise_cannot_join_another_course_s_section(
    database: Database, course: Course, make_user: UserFactory
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    with database.session() as session:
        other = Course(title="Other", join_code="OTHER")
        session.add(other)
        session.flush()
        elsewhere = Section(course_id=other.id, title="Theirs")
        session.add(elsewhere)
        session.flush()
        with pytest.raises(sections.SectionProblem, match="another course"):
            sections.assign(session, teacher, _exercise(session, course), elsewhere)
