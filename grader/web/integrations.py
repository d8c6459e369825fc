"""The integrations' pages: make one for a course, see its settings, rotate its signing
secret, replace its API token, disable or enable it.

For admins and the course's instructors; someone who teaches no course gets 403, an
integration of a course one does not teach 404. A new secret or token is shown once, in
the answer to the form that made it, and never again (it is not put in the session, whose
cookie is signed but readable).
"""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response
from wtforms import IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, NumberRange

from grader.lms import endpoints, integrations
from grader.lms.integrations import Credentials
from grader.models import Course, Integration
from grader.models.base import aware
from grader.services import permissions
from grader.web.context import db_session

blueprint = Blueprint("integrations", __name__)

HOSTS_HELP = "One per line: lms.example.edu, or *.example.edu for its subdomains."


class CreateForm(FlaskForm):
    course = SelectField("Course", coerce=int)
    name = StringField("Name", validators=[DataRequired(), Length(max=200)])
    allowed_hosts = TextAreaField("Hosts callbacks may go to", description=HOSTS_HELP)


class HostsForm(FlaskForm):
    allowed_hosts = TextAreaField("Hosts callbacks may go to", description=HOSTS_HELP)


class RotateForm(FlaskForm):
    overlap_hours = IntegerField(
        "Hours the current secret stays valid",
        default=int(integrations.ROTATION_OVERLAP.total_seconds() // 3600),
        validators=[NumberRange(0, int(integrations.MAX_OVERLAP.total_seconds() // 3600))],
    )


class ActionForm(FlaskForm):
    """A button that changes something: the CSRF token only."""


def _courses(session: Session) -> list[Course]:
    """The courses the signed-in user manages integrations of; 403 when none."""
    courses = permissions.taught_courses(session, current_user)
    if not courses and not current_user.is_admin:
        abort(403)
    return courses


def _integration(session: Session, integration_id: int) -> Integration:
    _courses(session)
    found = session.get(Integration, integration_id)
    if found is None or not permissions.may_change_integration(session, current_user, found):
        abort(404)
    return found


def _shown(credentials: Credentials, what: str) -> Response:
    """The page that shows a new secret or token, once, and is never cached."""
    integration = credentials.integration
    page = render_template(
        "integrations/shown.html",
        integration=integration,
        course=db_session().get(Course, integration.course_id),
        credentials=credentials,
        what=what,
    )
    response = Response(page, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.get("/")
@login_required
def index() -> str:
    session = db_session()
    courses = _courses(session)
    form = CreateForm()
    form.course.choices = [(course.id, course.title) for course in courses]
    return _index(session, courses, form)


def _index(session: Session, courses: list[Course], form: CreateForm) -> str:
    titles = {course.id: course.title for course in courses}
    return render_template(
        "integrations/index.html",
        integrations=integrations.managed(session, current_user),
        titles=titles,
        form=form,
    )


@blueprint.post("/")
@login_required
def create() -> Response | str | tuple[str, int]:
    session = db_session()
    courses = _courses(session)
    form = CreateForm()
    form.course.choices = [(course.id, course.title) for course in courses]
    hosts, problems = integrations.parse_hosts(form.allowed_hosts.data or "")
    if not form.validate() or problems:
        form.allowed_hosts.errors = [*form.allowed_hosts.errors, *problems]
        return _index(session, courses, form), 400
    course = session.get(Course, form.course.data)
    if course is None or not permissions.may_change_course(session, current_user, course.id):
        abort(404)
    credentials = integrations.create(session, course, form.name.data or "", hosts, current_user)
    return _shown(credentials, "created")


@blueprint.get("/<int:integration_id>")
@login_required
def detail(integration_id: int) -> str:
    session = db_session()
    integration = _integration(session, integration_id)
    hosts = HostsForm(allowed_hosts="\n".join(integration.allowed_hosts))
    return _detail(session, integration, hosts)


def _detail(session: Session, integration: Integration, hosts: HostsForm) -> str:
    until = integration.previous_secret_until
    return render_template(
        "integrations/detail.html",
        integration=integration,
        course=session.get(Course, integration.course_id),
        previous_until=aware(until) if integration.previous_secret and until else None,
        valid_secrets=len(integrations.verifying_secrets(integration)),
        gone=endpoints.disabled_of(session, integration.id),
        hosts_form=hosts,
        rotate_form=RotateForm(),
        action=ActionForm(),
    )


@blueprint.post("/<int:integration_id>/hosts")
@login_required
def update_hosts(integration_id: int) -> Response | tuple[str, int]:
    session = db_session()
    integration = _integration(session, integration_id)
    form = HostsForm()
    hosts, problems = integrations.parse_hosts(form.allowed_hosts.data or "")
    if not form.validate() or problems:
        form.allowed_hosts.errors = [*form.allowed_hosts.errors, *problems]
        return _detail(session, integration, form), 400
    integration.allowed_hosts = hosts
    flash("The allowed hosts are saved.", "success")
    return redirect(url_for("integrations.detail", integration_id=integration.id))


@blueprint.post("/<int:integration_id>/rotate")
@login_required
def rotate(integration_id: int) -> Response | tuple[str, int]:
    session = db_session()
    integration = _integration(session, integration_id)
    form = RotateForm()
    if not form.validate():
        hosts = HostsForm(allowed_hosts="\n".join(integration.allowed_hosts))
        return _detail(session, integration, hosts), 400
    overlap = timedelta(hours=form.overlap_hours.data or 0)
    credentials = integrations.rotate_secret(integration, overlap)
    return _shown(credentials, "rotated")


@blueprint.post("/<int:integration_id>/token")
@login_required
def replace_token(integration_id: int) -> Response:
    session = db_session()
    integration = _integration(session, integration_id)
    if not ActionForm().validate():
        abort(400)
    credentials = integrations.replace_token(integration)
    return _shown(credentials, "token")


@blueprint.post("/<int:integration_id>/<any(enable, disable):action>")
@login_required
def switch(integration_id: int, action: str) -> Response:
    session = db_session()
    integration = _integration(session, integration_id)
    if not ActionForm().validate():
        abort(400)
    integration.enabled = action == "enable"
    flash(f"The integration is {action}d.", "success")
    return redirect(url_for("integrations.detail", integration_id=integration.id))
