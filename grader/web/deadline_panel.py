"""The deadline section of an instructor's exercise page: the forms for the exercise's
dates, late policy and students' extensions, filled with what is stored.

Its own module because two pages draw it: the exercise page (:mod:`grader.web.exercise_page`)
and the deadline views when a form comes back with errors (:mod:`grader.web.deadlines`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask_wtf import FlaskForm
from sqlalchemy import select
from sqlalchemy.orm import Session
from wtforms import DateTimeLocalField, FloatField, HiddenField, SelectField, StringField
from wtforms.validators import InputRequired, Length, Optional

from grader.models import Exercise, Extension, LatePolicy, Membership, Role, User
from grader.models.base import aware
from grader.services import deadlines
from grader.services.grades import deadline
from grader.web.context import db_session

LOCAL_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"]
POLICIES = [
    (LatePolicy.NONE.value, "Accept late submissions, marked late, without a penalty"),
    (LatePolicy.PENALTY.value, "Accept them with a penalty per started day late"),
    (LatePolicy.REFUSE.value, "Refuse submissions after the due date"),
]


class DatesForm(FlaskForm):
    opens_at = DateTimeLocalField("Opens at", format=LOCAL_FORMATS, validators=[Optional()])
    due_at = DateTimeLocalField("Due at", format=LOCAL_FORMATS, validators=[Optional()])
    time_zone = HiddenField(default="UTC")
    late_policy = SelectField("Late submissions", choices=POLICIES, default=LatePolicy.NONE)
    penalty_per_day = FloatField("Penalty per started day (%)", validators=[Optional()])
    penalty_cap = FloatField("At most (%)", validators=[Optional()])


class ExtensionForm(FlaskForm):
    student = SelectField("Student", coerce=int, validate_choice=False)
    due_at = DateTimeLocalField(
        "New due date",
        format=LOCAL_FORMATS,
        validators=[InputRequired("Give the student's new due date.")],
    )
    time_zone = HiddenField(default="UTC")
    reason = StringField("Reason", validators=[Length(max=500)])


EXTENSION = "extension"
"""The extension form's prefix: its fields' names and ids stay apart from the dates'."""


class RemoveForm(FlaskForm):
    """Remove an extension: the CSRF token only."""


def _local_value(moment: datetime | None) -> str:
    return "" if moment is None else f"{aware(moment).astimezone(UTC):%Y-%m-%dT%H:%M}"


def students_of(session: Session, course_id: int) -> list[User]:
    """The course's students, by name: whom an extension can be granted to."""
    return list(
        session.scalars(
            select(User)
            .join(Membership, Membership.user_id == User.id)
            .where(Membership.course_id == course_id, Membership.role == Role.STUDENT)
            .order_by(User.name, User.id)
        )
    )


def panel(
    exercise: Exercise,
    dates_form: DatesForm | None = None,
    extension_form: ExtensionForm | None = None,
) -> dict[str, Any]:
    """What the exercise page's deadline section shows: the forms (filled with the stored
    values, which the script moves into the instructor's time zone), the extensions."""
    session = db_session()
    rules = deadlines.Rules.of(exercise)
    if dates_form is None:
        dates_form = DatesForm(
            formdata=None,
            late_policy=rules.policy.value,
            penalty_per_day=rules.penalty_per_day,
            penalty_cap=rules.penalty_cap,
        )
        utc_values = {
            "opens_at": _local_value(rules.opens_at),
            "due_at": _local_value(rules.due_at),
        }
    else:
        utc_values = {}
    students = students_of(session, exercise.course_id)
    extension_form = extension_form or ExtensionForm(formdata=None, prefix=EXTENSION)
    extension_form.student.choices = [(0, "Choose a student")] + [
        (student.id, f"{student.name} ({student.email})") for student in students
    ]
    extensions = session.execute(
        select(Extension, User)
        .join(User, User.id == Extension.user_id)
        .where(Extension.exercise_id == exercise.id)
        .order_by(User.name, User.id)
    ).all()
    return {
        "rules": rules,
        "origin": exercise.due_origin,
        "dates_form": dates_form,
        "utc_values": utc_values,
        "extension_form": extension_form,
        "extensions": [(row, user, deadline(exercise, row).extended) for row, user in extensions],
        "remove_form": RemoveForm(),
        "policy": deadlines.policy_words(deadline(exercise)),
    }
