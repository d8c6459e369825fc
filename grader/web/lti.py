"""LTI 1.3: platforms registered by an admin, the OIDC login, the launch, the tool's JWKS.

The blueprint is exempt from the site's CSRF protection (platforms post signed JWTs, not
forms); the admin's forms here are FlaskForms, which check their own token.
"""

from __future__ import annotations

import logging
import re
import secrets
from datetime import timedelta
from typing import Any, cast

import requests
from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask import session as browser_session
from flask_wtf import FlaskForm
from pylti1p3.contrib.flask.cookie import FlaskCookieService
from pylti1p3.contrib.flask.message_launch import FlaskMessageLaunch
from pylti1p3.contrib.flask.oidc_login import FlaskOIDCLogin
from pylti1p3.contrib.flask.request import FlaskRequest
from pylti1p3.exception import LtiException, OIDCException
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response
from wtforms import PasswordField, StringField, SubmitField, TextAreaField, URLField
from wtforms.validators import DataRequired, Length, ValidationError

from grader.lti import state as launch_state
from grader.lti.config import DatabaseToolConf
from grader.lti.keys import generate_key, key_set, public_pem
from grader.lti.launch import Accepted, LaunchRefused, accept, account_to_link
from grader.lti.urls import url_problem
from grader.models import LtiPlatform, User, utcnow
from grader.models.accounts import PendingLink
from grader.models.base import aware
from grader.services import identities
from grader.services.tasks import DELIVER_TASK, LINEITEM_TASK
from grader.web import links, sign_in_throttle
from grader.web.auth import password_matches, sign_in
from grader.web.context import db_session, queue, role_required, settings

blueprint = Blueprint("lti", __name__)
blueprint.register_error_handler(sign_in_throttle.Throttled, sign_in_throttle.too_many)
log = logging.getLogger(__name__)

LINK_SECONDS = 15 * 60
"""How long the page offering to link a launch to a local account waits for its answer."""
LINK_SESSION_KEY = "grader.lti_link"

JWT_TIMEOUT_SECONDS = 10.0
"""How long fetching a platform's key set may take."""
JWT_OPTIONS: dict[str, Any] = {"verify_aud": False, "require": ["exp", "iat"]}
"""PyJWT's checks of the id_token beyond its signature. The audience is checked against
the registration instead (PyLTI1p3 finds the platform by issuer and ``aud``)."""


def _secure_url(_form: FlaskForm, field: Any) -> None:
    problem = url_problem(field.data or "")
    if problem is not None:
        raise ValidationError(f"The URL {problem}.")


class PlatformForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(), Length(max=200)])
    # 300, not the column's 500: the issuer also names the users' external identities.
    issuer = StringField("Issuer (iss)", validators=[DataRequired(), Length(max=300)])
    client_id = StringField("Client id", validators=[DataRequired(), Length(max=300)])
    deployment_ids = TextAreaField(
        "Deployment ids (one per line or separated by commas)",
        validators=[DataRequired(), Length(max=5000)],
    )
    auth_login_url = URLField(
        "Authentication (OIDC) URL", validators=[DataRequired(), Length(max=2000), _secure_url]
    )
    auth_token_url = URLField(
        "Access token URL", validators=[DataRequired(), Length(max=2000), _secure_url]
    )
    key_set_url = URLField(
        "Key set (JWKS) URL", validators=[DataRequired(), Length(max=2000), _secure_url]
    )


class DeleteForm(FlaskForm):
    """Only its CSRF token."""


class LinkForm(FlaskForm):
    password = PasswordField("Your password on the grader")
    link = SubmitField("Link my account")
    separate = SubmitField("Keep them separate")


def _deployment_ids(text: str) -> list[str]:
    return [part for part in re.split(r"[\s,]+", text) if part]


def tool_urls() -> dict[str, str]:
    """What an admin enters in the platform to configure the tool."""
    return {
        "OIDC login initiation URL": links.external_url("lti.login"),
        "Launch (redirect) URL": links.external_url("lti.launch"),
        "Public key set (JWKS) URL": links.external_url("lti.jwks"),
    }


@blueprint.route("/platforms", methods=["GET", "POST"])
@role_required()
def platforms() -> str | Response:
    session = db_session()
    form = PlatformForm()
    if form.validate_on_submit():
        issuer = (form.issuer.data or "").strip()
        client_id = (form.client_id.data or "").strip()
        taken = session.scalar(
            select(LtiPlatform.id).where(
                LtiPlatform.issuer == issuer, LtiPlatform.client_id == client_id
            )
        )
        if taken is not None:
            flash("A platform with this issuer and client id is registered already.", "error")
        else:
            private_pem, key_id = generate_key()
            platform = LtiPlatform(
                name=(form.name.data or "").strip(),
                issuer=issuer,
                client_id=client_id,
                deployment_ids=_deployment_ids(form.deployment_ids.data or ""),
                auth_login_url=(form.auth_login_url.data or "").strip(),
                auth_token_url=(form.auth_token_url.data or "").strip(),
                key_set_url=(form.key_set_url.data or "").strip(),
                tool_private_key=private_pem,
                tool_key_id=key_id,
            )
            session.add(platform)
            try:
                session.commit()  # here: a duplicate is told apart by the commit's error
            except IntegrityError:  # registered at the same moment by another request
                session.rollback()
                flash("A platform with this issuer and client id is registered already.", "error")
            else:
                flash(f"Platform {platform.name} registered: configure the tool in it.", "info")
                return redirect(url_for("lti.platform", platform_id=platform.id))
    registered = session.scalars(select(LtiPlatform).order_by(LtiPlatform.name)).all()
    return render_template("lti/platforms.html", form=form, platforms=registered)


@blueprint.route("/platforms/<int:platform_id>")
@role_required()
def platform(platform_id: int) -> str:
    found = db_session().get(LtiPlatform, platform_id)
    if found is None:
        abort(404)
    return render_template(
        "lti/platform.html",
        platform=found,
        urls=tool_urls(),
        public_key=public_pem(found.tool_private_key),
        form=DeleteForm(),
    )


@blueprint.route("/platforms/<int:platform_id>/delete", methods=["POST"])
@role_required()
def delete_platform(platform_id: int) -> Response:
    session = db_session()
    found = session.get(LtiPlatform, platform_id)
    if found is None:
        abort(404)
    if not DeleteForm().validate_on_submit():
        abort(400, "The form expired: reload the page and try again.")
    session.delete(found)
    flash(f"Platform {found.name} removed, with its launches and pending scores.", "info")
    return redirect(url_for("lti.platforms"))


def _refused(message: str, status: int = 400) -> tuple[str, int]:
    return render_template("lti/refused.html", message=message), status


def _services(
    lti_request: FlaskRequest,
) -> tuple[DatabaseToolConf, FlaskCookieService, launch_state.LaunchState]:
    cookies = FlaskCookieService(lti_request)  # type: ignore[no-untyped-call]
    nonces = launch_state.LaunchState(
        lti_request, cookies, settings().effective_secret_key, db_session()
    )
    return DatabaseToolConf(db_session()), cookies, nonces


@blueprint.route("/login", methods=["GET", "POST"])
def login() -> Any:
    """OIDC third-party login initiation: back to the platform with a state and a nonce."""
    lti_request = FlaskRequest()  # type: ignore[no-untyped-call]
    conf, cookies, nonces = _services(lti_request)
    oidc = FlaskOIDCLogin(  # type: ignore[no-untyped-call]
        lti_request, conf, session_service=nonces, cookie_service=cookies
    )
    try:
        return oidc.redirect(links.external_url("lti.launch"))
    except (OIDCException, LtiException) as error:
        log.info("LTI login refused: %s", error)
        reason = str(error).rstrip(". ") or "it is incomplete"
        return _refused(f"The login from the platform was refused: {reason}.")


class _TimedSession(requests.Session):
    """A ``requests`` session whose requests give up after ``JWT_TIMEOUT_SECONDS``."""

    def __init__(self) -> None:
        super().__init__()
        self.trust_env = False
        self.headers["User-Agent"] = "gametree-grader-lti/1"

    def request(self, method: Any, url: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("timeout", JWT_TIMEOUT_SECONDS)
        return super().request(method, url, *args, **kwargs)


def _audience_problem(claims: dict[str, Any], client_id: str) -> str | None:
    audience = claims.get("aud")
    audiences = audience if isinstance(audience, list) else [audience]
    if client_id not in audiences:
        return "the id_token is not meant for this tool (audience)"
    azp = claims.get("azp")
    if (len(audiences) > 1 or azp is not None) and azp != client_id:
        return "the id_token's authorized party (azp) is not this tool"
    return None


@blueprint.route("/launch", methods=["POST"])
def launch() -> Any:
    """The platform's launch: the id_token checked, the person signed in, on to the exercise."""
    lti_request = FlaskRequest()  # type: ignore[no-untyped-call]
    conf, cookies, nonces = _services(lti_request)
    message = FlaskMessageLaunch(  # type: ignore[no-untyped-call]
        lti_request,
        conf,
        session_service=nonces,
        cookie_service=cookies,
        requests_session=_TimedSession(),
    )
    message.set_jwt_verify_options(cast(dict[str, bool], JWT_OPTIONS))
    try:
        claims = cast(dict[str, Any], message.get_launch_data())
        platform = conf.platform(message.get_iss(), message.get_client_id())
        if platform is None:
            raise LtiException("Registration not found.")
        problem = _audience_problem(claims, platform.client_id)
        if problem is not None:
            raise LtiException(problem)
        if not message.is_resource_launch():
            return _refused("Only resource link launches are supported: open an exercise link.")
        nonce = str(claims["nonce"])
        if not launch_state.spend(db_session(), nonce):
            raise LtiException("Invalid Nonce")
    except LtiException as error:
        log.info("LTI launch refused: %s", error)
        reason = str(error).rstrip(". ") or "its id_token is not valid"
        return _refused(f"The launch could not be verified: {reason}.", 403)
    except Exception:
        log.exception("LTI launch could not be validated")
        return _refused("The launch could not be verified: its id_token is not valid.", 403)
    local = account_to_link(db_session(), platform, claims)
    if local is not None:
        response = _offer_link(platform, local, claims)
    else:
        response = _signed_in(platform, claims)
    launch_state.forget_cookies(response, nonce, request.form.get("state"))
    return response


def _signed_in(platform: LtiPlatform, claims: dict[str, Any]) -> Response:
    """The launch accepted, its user signed in, on to the exercise (or a refusal page)."""
    accepted = _accept(platform, claims)
    if isinstance(accepted, str):
        page, status = _refused(accepted)
        return Response(page, status, mimetype="text/html")
    sign_in(accepted.user)
    return redirect(f"/exercises/{accepted.exercise.id}")


def _offer_link(platform: LtiPlatform, local: User, claims: dict[str, Any]) -> Response:
    """Keep the verified launch for a moment and ask whether ``local`` is this person."""
    db = db_session()
    pending = PendingLink(
        id=secrets.token_urlsafe(32),
        platform_id=platform.id,
        user_id=local.id,
        claims=claims,
        expires_at=utcnow() + timedelta(seconds=LINK_SECONDS),
    )
    db.add(pending)
    browser_session[LINK_SESSION_KEY] = pending.id
    return redirect(url_for("lti.link"))


def _pending() -> PendingLink | None:
    """This browser's launch waiting to be linked (removing expired ones on the way)."""
    db = db_session()
    pending_id = browser_session.get(LINK_SESSION_KEY)
    pending = db.get(PendingLink, pending_id) if isinstance(pending_id, str) else None
    if pending is not None and aware(pending.expires_at) < utcnow():
        db.delete(pending)
        db.commit()  # here: the page that follows may be an error, which rolls back
        return None
    return pending


@blueprint.route("/link", methods=["GET", "POST"])
def link() -> Any:
    """A launch whose asserted email belongs to a local account: its owner links them by
    entering the account's password (the platform's identity then signs in to it), or
    keeps them apart (the platform's user is an account of its own)."""
    pending = _pending()
    if pending is None:
        return _refused(
            "This launch waited too long, or was answered already: open the link in your "
            "course again."
        )
    db = db_session()
    platform = db.get(LtiPlatform, pending.platform_id)
    local = db.get(User, pending.user_id)
    assert platform is not None and local is not None  # ON DELETE CASCADE
    claims = dict(pending.claims)
    form = LinkForm()
    if form.validate_on_submit():
        if form.link.data:
            # The same limits as the sign-in form: this page takes the account's password.
            sign_in_throttle.check(local.email)
            if not password_matches(local, form.password.data or ""):
                sign_in_throttle.failed(local.email, known=True)
                flash("Wrong password: try again, or keep the accounts separate.", "error")
                return _link_page(form, platform, local, claims)
            if account_to_link(db, platform, claims) is not None:
                identities.link(db, namespace=platform.issuer, subject=claims["sub"], user=local)
        _forget_pending(pending)
        return _signed_in(platform, claims)
    return _link_page(form, platform, local, claims)


def _forget_pending(pending: PendingLink) -> None:
    db_session().delete(pending)
    browser_session.pop(LINK_SESSION_KEY, None)


def _link_page(form: LinkForm, platform: LtiPlatform, local: User, claims: dict[str, Any]) -> str:
    return render_template(
        "lti/link.html",
        form=form,
        platform=platform,
        email=local.email,
        asserted=identities.asserted_email(claims.get("email")),
    )


def _accept(platform: LtiPlatform, claims: dict[str, Any]) -> Accepted | str:
    """The launch's rows committed; or why not, in words. Two first launches of the same
    context or person at once collide on a unique key: the second try finds the rows."""
    session = db_session()
    for attempt in (1, 2):
        try:
            accepted = accept(session, settings(), platform, claims)
            queue().dispatch(session, DELIVER_TASK, accepted.deliveries)
            if accepted.lineitem_launch is not None:
                queue().dispatch(session, LINEITEM_TASK, [accepted.lineitem_launch])
            session.commit()  # here: a collision is told apart by the commit's error
            return accepted
        except LaunchRefused as refused:
            session.rollback()
            return refused.message
        except IntegrityError:
            session.rollback()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


@blueprint.route("/jwks")
def jwks() -> Response:
    """The tool's public keys, one per registered platform, each with its key id."""
    keys = key_set(db_session().scalars(select(LtiPlatform).order_by(LtiPlatform.id)))
    response = jsonify(keys)
    response.headers["Cache-Control"] = "public, max-age=300"
    return response
