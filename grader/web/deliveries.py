"""The delivery log: what the grader sent to a course's LMS, each attempt, a replay, and
a callback URL disabled by a 410 Gone enabled again.

For the course's instructors and for admins; other instructors get 404 (a course they do
not teach is none of their business), students 403.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from grader.lms import endpoints
from grader.models import (
    CallbackEndpoint,
    Course,
    Delivery,
    DeliveryState,
    Exercise,
    Integration,
    Role,
    Submission,
)
from grader.services import permissions
from grader.services.deliveries import replay
from grader.services.tasks import DELIVER_TASK
from grader.web.context import db_session, queue, role_required

blueprint = Blueprint("deliveries", __name__)

PAGE_SIZE = 50
STATES = tuple(state.value for state in DeliveryState)


def _taught(session: Session, course_id: int | None) -> Course:
    """The course, if the signed-in user teaches it (or is an admin); else 404."""
    course = session.get(Course, course_id) if course_id is not None else None
    if course is None or not permissions.may_change_course(session, current_user, course.id):
        abort(404)
    return course


def _of_course(course_id: int) -> ColumnElement[bool]:
    """Deliveries of the course: through its integrations, or for its submissions."""
    integrations = select(Integration.id).where(Integration.course_id == course_id)
    submissions = select(Submission.id).join(Exercise).where(Exercise.course_id == course_id)
    return or_(Delivery.integration_id.in_(integrations), Delivery.submission_id.in_(submissions))


def _course_id_of(session: Session, delivery: Delivery) -> int | None:
    if delivery.integration_id is not None:
        integration = session.get(Integration, delivery.integration_id)
        return integration.course_id if integration is not None else None
    if delivery.submission_id is not None:
        return session.scalar(
            select(Exercise.course_id)
            .join(Submission, Submission.exercise_id == Exercise.id)
            .where(Submission.id == delivery.submission_id)
        )
    return None


def _delivery(session: Session, delivery_id: int) -> tuple[Delivery, Course]:
    delivery = session.get(Delivery, delivery_id)
    if delivery is None:
        abort(404)
    return delivery, _taught(session, _course_id_of(session, delivery))


@blueprint.get("/")
@role_required(Role.INSTRUCTOR)
def index() -> str:
    """The courses whose delivery logs the user may read."""
    courses = permissions.taught_courses(db_session(), current_user)
    return render_template("deliveries/index.html", courses=courses)


@blueprint.get("/courses/<int:course_id>")
@role_required(Role.INSTRUCTOR)
def course_log(course_id: int) -> str:
    """A course's deliveries, newest first, optionally of one state."""
    session = db_session()
    course = _taught(session, course_id)
    state = request.args.get("state", "")
    page = max(1, request.args.get("page", 1, type=int) or 1)
    where = [_of_course(course.id)]
    if state in STATES:
        where.append(Delivery.state == state)
    total = session.scalar(select(func.count()).select_from(Delivery).where(*where)) or 0
    deliveries = session.scalars(
        select(Delivery)
        .where(*where)
        .order_by(Delivery.id.desc())
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
    ).all()
    return render_template(
        "deliveries/course.html",
        course=course,
        deliveries=deliveries,
        state=state if state in STATES else "",
        states=STATES,
        page=page,
        pages=max(1, -(-total // PAGE_SIZE)),
        total=total,
    )


@blueprint.get("/<int:delivery_id>")
@role_required(Role.INSTRUCTOR)
def detail(delivery_id: int) -> str:
    """One delivery: where it goes, what it carries, every attempt."""
    session = db_session()
    delivery, course = _delivery(session, delivery_id)
    endpoint = _endpoint(session, delivery)
    return render_template(
        "deliveries/detail.html", delivery=delivery, course=course, endpoint=endpoint
    )


def _endpoint(session: Session, delivery: Delivery) -> CallbackEndpoint | None:
    if delivery.integration_id is None:
        return None
    return endpoints.find(session, delivery.integration_id, delivery.url)


@blueprint.post("/<int:delivery_id>/endpoint/enable")
@role_required(Role.INSTRUCTOR)
def enable_endpoint(delivery_id: int) -> Response:
    """Let callbacks go to the delivery's URL again after a 410 Gone disabled it (this
    delivery stays as it is: "Send again" sends it)."""
    session = db_session()
    delivery, _course = _delivery(session, delivery_id)
    endpoint = _endpoint(session, delivery)
    if endpoint is None or endpoint.disabled_at is None:
        flash("This callback URL is not disabled.", "info")
    else:
        endpoints.enable(endpoint, current_user.id)
        flash(
            f"Callbacks may go to {delivery.url} again; webhooks naming it are accepted again.",
            "info",
        )
    return redirect(url_for("deliveries.detail", delivery_id=delivery.id))


@blueprint.post("/<int:delivery_id>/replay")
@role_required(Role.INSTRUCTOR)
def replay_delivery(delivery_id: int) -> Response:
    """Send the delivery again now, with a new retry window (the same message id, so a
    receiver that already has it can tell)."""
    session = db_session()
    delivery, _course = _delivery(session, delivery_id)
    replay(session, delivery)
    queue().dispatch(session, DELIVER_TASK, [delivery.id])
    flash(f"Delivery {delivery.id} is being sent again.", "info")
    return redirect(url_for("deliveries.detail", delivery_id=delivery.id))
