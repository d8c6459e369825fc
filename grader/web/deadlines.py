"""Deadlines on the pages: what the students' pages say about when an exercise is due and
what a late attempt costs, and the instructor's views that save an exercise's dates, late
policy and students' extensions (their forms: :mod:`grader.web.deadline_panel`).

Times are entered in the instructor's own time zone (a ``datetime-local`` input and the
browser's IANA zone in a hidden field, filled by ``static/js/localtime.js``), stored in
UTC, and shown as ``<time>`` elements that the same script turns into the viewer's time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Blueprint, abort, flash, redirect, url_for
from flask_login import current_user
from markupsafe import Markup, escape
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from grader.models import Exercise, Extension, LatePolicy, Role, User, utcnow
from grader.models.base import aware
from grader.services import deadlines
from grader.services.grades import Deadline, deadline, deadline_for
from grader.services.tasks import DELIVER_TASK
from grader.web.context import db_session, queue, role_required, taught_exercise
from grader.web.deadline_panel import (
    EXTENSION,
    DatesForm,
    ExtensionForm,
    RemoveForm,
    panel,
    students_of,
)
from grader.web.exercise_page import exercise_view

blueprint = Blueprint("deadlines", __name__, url_prefix="/teach")

# -- times -----------------------------------------------------------------------------


def zone(name: str | None) -> ZoneInfo:
    """The IANA time zone ``name`` (the browser's), or UTC when it is missing or unknown."""
    try:
        return ZoneInfo((name or "UTC").strip() or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def to_utc(local: datetime | None, zone_name: str | None) -> datetime | None:
    """A wall-clock time entered in ``zone_name``, in UTC."""
    if local is None:
        return None
    return local.replace(tzinfo=zone(zone_name)).astimezone(UTC)


def time_html(moment: datetime, relative: bool = False, now: datetime | None = None) -> Markup:
    """A ``<time>`` showing ``moment`` in UTC, which ``localtime.js`` shows in the viewer's
    time zone (keeping the UTC text as its title); ``relative`` adds "(in 2 days)"."""
    moment = aware(moment).astimezone(UTC)
    text = f"{moment:%a} {moment.day} {moment:%b %Y}, {moment:%H:%M} UTC"
    iso = moment.isoformat(timespec="seconds").replace("+00:00", "Z")
    html = f'<time datetime="{iso}" data-local>{escape(text)}</time>'
    if relative:
        html += f" ({escape(from_now(moment, now or utcnow()))})"
    return Markup(html)


UNITS = (("day", 86400), ("hour", 3600), ("minute", 60))


def from_now(moment: datetime, now: datetime) -> str:
    """How far ``moment`` is from ``now``, in words: "in 2 days", "3 hours ago"."""
    seconds = (aware(moment) - aware(now)).total_seconds()
    size = abs(seconds)
    found = [(unit, length) for unit, length in UNITS if size >= length]
    if not found:
        return "now"
    unit, length = found[0]
    count = int(size // length)
    words = f"{count} {unit}{'' if count == 1 else 's'}"
    return f"in {words}" if seconds > 0 else f"{words} ago"


# -- the students' pages ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DueView:
    """What a student's pages say about an exercise's dates."""

    deadline: Deadline
    now: datetime

    @property
    def refusal(self) -> Markup | None:
        """Why an attempt now is refused, in words with times (None: it is accepted)."""
        found = self.deadline
        if found.refuses(self.now) is None:
            return None
        if found.opens_at is not None and self.now < aware(found.opens_at):
            return Markup("Not open yet: it opens ") + time_html(found.opens_at, True, self.now)
        return Markup("Closed: no late submissions; it was due ") + self._due() + Markup(".")

    @property
    def not_open(self) -> bool:
        opens = self.deadline.opens_at
        return opens is not None and self.now < aware(opens)

    @property
    def overdue(self) -> bool:
        due = self.deadline.due_at
        return due is not None and self.now > aware(due)

    def _due(self) -> Markup:
        assert self.deadline.due_at is not None
        return time_html(self.deadline.due_at, True, self.now)

    def lines(self) -> list[Markup]:
        """The exercise page's sentences: opening, due date, extension, policy."""
        found = self.deadline
        lines: list[Markup] = []
        if self.not_open and found.opens_at is not None:
            lines.append(Markup("Opens ") + time_html(found.opens_at, True, self.now))
        if found.due_at is None:
            return lines
        if found.extended and found.course_due_at is not None:
            lines.append(Markup("Your extension: due ") + self._due())
            lines.append(Markup("(Everyone else: due ") + time_html(found.course_due_at) + ")")
        else:
            lines.append((Markup("Was due ") if self.overdue else Markup("Due ")) + self._due())
        lines.append(Markup(escape(deadlines.policy_words(found))))
        return lines

    def short(self) -> Markup:
        """One cell of the exercise list."""
        found = self.deadline
        if self.not_open and found.opens_at is not None:
            return Markup("Opens ") + time_html(found.opens_at, True, self.now)
        if found.due_at is None:
            # A dash on the list, words for screen readers: the column fits a phone.
            return Markup(
                '<span aria-hidden="true">&ndash;</span>'
                '<span class="visually-hidden">no due date</span>'
            )
        if self.overdue and found.policy == LatePolicy.REFUSE:
            return Markup("Closed: was due ") + self._due()
        head = "Due " if not self.overdue else "Was due "
        if found.extended:
            head = "Your extension: " + head.lower()
        return Markup(head) + self._due()


def due_view(session: Session, exercise: Exercise, user_id: int) -> DueView:
    return DueView(deadline_for(session, exercise, user_id), utcnow())


def due_views(session: Session, exercises: list[Exercise], user_id: int) -> dict[int, DueView]:
    """Each exercise's :class:`DueView` for ``user_id``, their extensions read at once."""
    extensions = {
        row.exercise_id: row
        for row in session.scalars(
            select(Extension).where(
                Extension.user_id == user_id,
                Extension.exercise_id.in_([exercise.id for exercise in exercises]),
            )
        )
    }
    now = utcnow()
    return {
        exercise.id: DueView(deadline(exercise, extensions.get(exercise.id)), now)
        for exercise in exercises
    }


# -- the instructor's pages ------------------------------------------------------------


def _again(exercise: Exercise, **forms: Any) -> tuple[str, int]:
    return exercise_view(exercise, deadlines=panel(exercise, **forms)), 422


@blueprint.route("/exercises/<int:exercise_id>/deadline", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def set_dates(exercise_id: int) -> Response | tuple[str, int]:
    exercise = taught_exercise(exercise_id)
    form = DatesForm()
    if not form.validate_on_submit():
        return _again(exercise, dates_form=form)
    policy = LatePolicy(form.late_policy.data or LatePolicy.NONE)
    rules = deadlines.Rules(
        opens_at=to_utc(form.opens_at.data, form.time_zone.data),
        due_at=to_utc(form.due_at.data, form.time_zone.data),
        policy=policy,
        penalty_per_day=form.penalty_per_day.data or 0.0,
        penalty_cap=100.0 if form.penalty_cap.data is None else form.penalty_cap.data,
    )
    problems = deadlines.problems(rules)
    if policy == LatePolicy.REFUSE and rules.due_at is None:
        problems["due_at"] = "Refusing late submissions needs a due date."
    if problems:
        for name, problem in problems.items():
            getattr(form, name).errors = [problem]
        return _again(exercise, dates_form=form)
    session = db_session()
    ids = deadlines.set_rules(session, exercise, current_user, rules)
    queue().dispatch(session, DELIVER_TASK, ids)
    flash(f"Saved the dates and late policy of {exercise.title}.", "info")
    return redirect(url_for("instructor.exercise_page", exercise_id=exercise.id) + "#deadlines")


@blueprint.route("/exercises/<int:exercise_id>/extensions", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def grant(exercise_id: int) -> Response | tuple[str, int]:
    exercise = taught_exercise(exercise_id)
    session = db_session()
    form = ExtensionForm(prefix=EXTENSION)
    students = {student.id: student for student in students_of(session, exercise.course_id)}
    if not form.validate_on_submit():
        return _again(exercise, extension_form=form)
    student = students.get(form.student.data or 0)
    due_at = to_utc(form.due_at.data, form.time_zone.data)
    if student is None:
        form.student.errors = ["Choose one of the course's students."]
    if due_at is not None and exercise.due_at is not None and due_at <= aware(exercise.due_at):
        form.due_at.errors = [
            "An extension must be later than the exercise's due date "
            f"({aware(exercise.due_at):%Y-%m-%d %H:%M} UTC)."
        ]
    if exercise.due_at is None:
        form.due_at.errors = ["The exercise has no due date to extend: set one first."]
    if student is None or form.due_at.errors or due_at is None:
        return _again(exercise, extension_form=form)
    ids = deadlines.grant_extension(
        session, exercise, current_user, student.id, due_at, (form.reason.data or "").strip()
    )
    queue().dispatch(session, DELIVER_TASK, ids)
    flash(f"{student.name} has an extension on {exercise.title}.", "info")
    return redirect(url_for("instructor.exercise_page", exercise_id=exercise.id) + "#extensions")


@blueprint.route(
    "/exercises/<int:exercise_id>/extensions/<int:extension_id>/delete", methods=["POST"]
)
@role_required(Role.INSTRUCTOR)
def remove(exercise_id: int, extension_id: int) -> Response:
    exercise = taught_exercise(exercise_id)
    session = db_session()
    extension = session.get(Extension, extension_id)
    if extension is None or extension.exercise_id != exercise.id:
        abort(404)
    if not RemoveForm().validate_on_submit():
        abort(400)
    student = session.get(User, extension.user_id)
    ids = deadlines.remove_extension(session, exercise, current_user, extension)
    queue().dispatch(session, DELIVER_TASK, ids)
    flash(f"Removed the extension of {student.name if student else 'the student'}.", "info")
    return redirect(url_for("instructor.exercise_page", exercise_id=exercise.id) + "#extensions")
