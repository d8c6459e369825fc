"""The Flask application: ``create_app`` wires configuration, database, login and pages."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask, g
from flask_login import LoginManager
from flask_wtf.csrf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

from grader.config import Settings
from grader.db import Database
from grader.models import User
from grader.services import mail
from grader.services.queue import Queue
from grader.web import context, limits, security, template_filters

csrf = CSRFProtect()
login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message = "Please sign in to see this page."


def create_app(
    settings: Settings | None = None, database: Database | None = None, queue: Queue | None = None
) -> Flask:
    """The application for ``settings`` (default: from the environment), sending tasks
    through ``queue`` (default: by name to the broker of ``settings``)."""
    settings = (settings or Settings.from_env()).checked()
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=settings.effective_secret_key,
        MAX_CONTENT_LENGTH=settings.upload_limit_bytes + 16 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=not settings.development,
        REMEMBER_COOKIE_SECURE=not settings.development,
        REMEMBER_COOKIE_HTTPONLY=True,
        # Sessions are permanent, end after this long without use, and are refreshed on
        # every request; the user loader ends them sooner when the user's version moves on.
        PERMANENT_SESSION_LIFETIME=timedelta(hours=settings.session_hours),
        SESSION_REFRESH_EACH_REQUEST=True,
        REMEMBER_COOKIE_DURATION=timedelta(hours=settings.session_hours),
        WTF_CSRF_TIME_LIMIT=None,
    )
    if settings.proxy_hops:
        # The client's address (sign-in throttling, the metrics allow-list) and scheme as that
        # many proxies forwarded them. Without proxies no X-Forwarded-* header is read: any
        # client could send one.
        hops = settings.proxy_hops
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    app.extensions["grader.settings"] = settings
    database = database or Database.from_settings(settings)
    app.extensions["grader.db"] = database
    app.extensions["grader.queue"] = queue or Queue(settings, database)
    app.extensions["grader.mail"] = mail.sender_for(settings)  # the auth pages' messages
    csrf.init_app(app)
    login_manager.init_app(app)
    limits.install(app, settings)
    security.install(app, settings)

    from grader.web import (
        added_implementations,
        analyses,
        api,
        auth,
        course_admin,
        deadlines,
        deliveries,
        errors,
        instructor,
        integrations,
        lti,
        misconceptions,
        ops,
        regrades,
        roster,
        student,
    )

    errors.register(app)
    template_filters.register(app)
    app.register_blueprint(auth.blueprint)
    app.register_blueprint(student.blueprint)
    app.register_blueprint(instructor.blueprint)
    app.register_blueprint(course_admin.blueprint)
    app.register_blueprint(regrades.blueprint)
    app.register_blueprint(deadlines.blueprint)
    app.register_blueprint(analyses.blueprint)
    app.register_blueprint(misconceptions.blueprint)
    app.register_blueprint(added_implementations.blueprint)
    app.register_blueprint(roster.blueprint)
    app.register_blueprint(ops.blueprint)
    app.register_blueprint(api.blueprint, url_prefix="/api/v1")
    app.register_blueprint(integrations.blueprint, url_prefix="/teach/integrations")
    app.register_blueprint(deliveries.blueprint, url_prefix="/teach/deliveries")
    app.register_blueprint(lti.blueprint, url_prefix="/lti")
    # Machines sign these requests (webhook signatures, API tokens, LTI JWTs), not forms;
    # probes and scrapers (ops) have neither a sign-in nor a CSRF token.
    csrf.exempt(api.blueprint)
    csrf.exempt(lti.blueprint)
    csrf.exempt(ops.blueprint)
    ops.register(app)
    app.after_request(context.end_unit_of_work)
    app.teardown_appcontext(_close_session)
    return app


@login_manager.user_loader
def _load_user(user_id: str) -> User | None:
    """The user of a session whose id is ``<id>:<session_version>`` (see ``User.get_id``);
    None for a session made before the user signed out, changed password or role."""
    from grader.web.context import db_session

    number, _, version = user_id.partition(":")
    if not (number.isdigit() and version.isdigit()):
        return None
    user = db_session().get(User, int(number))
    if user is None or user.session_version != int(version):
        return None
    return user


def _close_session(_error: BaseException | None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
