"""Signing in and out, creating a student account, resetting a password, joining a course.

Creating an account never tells whether an address has one: the form's answer is the same
page either way, and the address gets a message, a link confirming it for a new account,
or a reminder to sign in (or reset the password) for an existing one. The account is made
when the link is opened. A password reset link is signed, expires, and works once.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_limiter import RateLimitExceeded
from flask_login import current_user, login_required, login_user, logout_user
from flask_wtf import FlaskForm
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response
from wtforms import EmailField, PasswordField, StringField
from wtforms.validators import DataRequired, Email, EqualTo, Length, Optional

from grader.models import Course, Membership, Role, User
from grader.services import identities, join_codes, mail, passwords
from grader.web import limits, sign_in_throttle
from grader.web.context import db_session, settings
from grader.web.links import external_url

blueprint = Blueprint("auth", __name__)
blueprint.register_error_handler(RateLimitExceeded, limits.too_many_messages)
blueprint.register_error_handler(sign_in_throttle.Throttled, sign_in_throttle.too_many)


def _stripped(value: object) -> object:
    return value.strip() if isinstance(value, str) else value


class LoginForm(FlaskForm):
    email = EmailField("Email", filters=[_stripped], validators=[DataRequired(), Email()])
    password = PasswordField("Password", validators=[DataRequired()])


class RegisterForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(), Length(max=200)])
    email = EmailField(
        "Email", filters=[_stripped], validators=[DataRequired(), Email(), Length(max=254)]
    )
    join_code = StringField("Course join code", validators=[Optional(), Length(max=40)])


class ForgotForm(FlaskForm):
    email = EmailField(
        "Email", filters=[_stripped], validators=[DataRequired(), Email(), Length(max=254)]
    )


class PasswordForm(FlaskForm):
    password = PasswordField("New password", validators=[DataRequired(), Length(min=8, max=200)])
    confirm = PasswordField(
        "The same password again",
        validators=[DataRequired(), EqualTo("password", message="The two passwords differ.")],
    )


class JoinForm(FlaskForm):
    join_code = StringField("Course join code", validators=[DataRequired(), Length(max=40)])


def hash_password(password: str) -> str:
    return passwords.hash_password(settings(), password)


def find_user(email: str) -> User | None:
    return identities.find_by_email(db_session(), email)


def password_matches(user: User | None, password: str) -> bool:
    """Whether ``user`` signs in with ``password`` (accounts without one never do; a wrong
    address takes as long as a wrong password)."""
    return passwords.matches(settings(), None if user is None else user.password_hash, password)


def sign_in(user: User) -> None:
    """Start ``user``'s session: permanent (``Settings.session_hours`` without use)."""
    login_user(user)
    session.permanent = True


def join(user: User, code: str) -> Course | None:
    """Enrol ``user`` as a student in the course with ``code`` (None: no such course)."""
    db = db_session()
    course = join_codes.find_course(db, code)
    if course is None:
        return None
    exists = db.scalar(
        select(Membership).where(Membership.user_id == user.id, Membership.course_id == course.id)
    )
    if exists is None:
        db.add(Membership(user_id=user.id, course_id=course.id, role=Role.STUDENT))
    return course


def _unknown_code(code: str) -> str:
    return (
        f"No course has the join code {code.strip()!r} (upper or lower case does not matter): "
        "check it with your instructor."
    )


def mailer() -> mail.MailSender:
    """The app's mail sender (``create_app`` sets it; tests put a ``mail.Outbox`` there)."""
    sender: mail.MailSender = current_app.extensions["grader.mail"]
    return sender


@blueprint.route("/login", methods=["GET", "POST"])
def login() -> str | Response:
    form = LoginForm()
    if form.validate_on_submit():
        email = form.email.data or ""
        sign_in_throttle.check(email)
        user = find_user(email)
        if password_matches(user, form.password.data or ""):
            assert user is not None
            sign_in(user)
            return redirect(_next_url())
        sign_in_throttle.failed(email, known=user is not None)
        flash("Wrong email or password.", "error")
    return render_template("auth/login.html", form=form)


def safe_next(target: str) -> str | None:
    """``target`` when it is a path on this site, else None. Browsers drop tabs and new
    lines from URLs and read ``\\`` as ``/``, so ``/\\t/host`` and ``/\\host`` lead to another
    host: anything with control characters, white space or a backslash is refused."""
    if not target or any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in target):
        return None
    if "\\" in target or not target.startswith("/") or target.startswith("//"):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


def _next_url() -> str:
    return safe_next(request.args.get("next", "")) or url_for("student.home")


@blueprint.route("/logout", methods=["POST"])
def logout() -> Response:
    if current_user.is_authenticated:
        identities.bump_sessions(current_user)
    logout_user()
    return redirect(url_for("auth.login"))


@blueprint.route("/register", methods=["GET", "POST"])
@limits.mail_limited
def register() -> str | Response:
    form = RegisterForm()
    if form.validate_on_submit():
        code = join_codes.normalise(form.join_code.data or "")
        if code and not join_codes.is_taken(db_session(), code):
            # The form is shown again as it was sent (name, email, code) to be corrected.
            form.join_code.errors = [_unknown_code(form.join_code.data or "")]
            return render_template("auth/register.html", form=form)
        email = identities.normalise_email(form.email.data or "")
        if find_user(email) is not None:
            message = mail.Message(
                to=email,
                subject="You already have an account",
                body=(
                    "Someone (you, we hope) asked to create an account with this address on "
                    "the game-tree grader, but you already have an account: sign in, or "
                    "reset your password if you forgot it.\n\n"
                    f"Sign in: {external_url('auth.login')}\n"
                    f"Forgot your password? Reset it: {external_url('auth.forgot')}\n"
                ),
            )
        else:
            token = identities.registration_token(
                settings().effective_secret_key,
                email=email,
                name=(form.name.data or "").strip(),
                join_code=code,
            )
            message = mail.Message(
                to=email,
                subject="Confirm your address to create your account",
                body=(
                    "To create your account on the game-tree grader, open this link and "
                    f"choose a password (it works for 24 hours):\n\n"
                    f"{external_url('auth.confirm', token=token)}\n\n"
                    "If you did not ask for an account, ignore this message.\n"
                ),
            )
        mail.send(mailer(), message)
        return render_template("auth/check_mail.html", email=email, purpose="register")
    return render_template("auth/register.html", form=form)


@blueprint.route("/register/<token>", methods=["GET", "POST"])
def confirm(token: str) -> str | Response | tuple[str, int]:
    """The link a new account's message carries: choose a password, and the account is
    made (once: a second use finds the account and says to sign in)."""
    try:
        wanted = identities.registration(settings().effective_secret_key, token)
    except identities.TokenRefused as refused:
        return render_template("auth/link_refused.html", message=refused.message), 400
    if find_user(wanted["email"]) is not None:
        flash("This address has an account already: sign in.", "info")
        return redirect(url_for("auth.login"))
    form = PasswordForm()
    if form.validate_on_submit():
        db = db_session()
        user = User(
            name=wanted["name"] or wanted["email"].split("@")[0],
            email=wanted["email"],
            password_hash=hash_password(form.password.data or ""),
            role=Role.STUDENT,
        )
        db.add(user)
        try:
            db.flush()
        except IntegrityError:  # the same link opened twice at once
            db.rollback()
            flash("This address has an account already: sign in.", "info")
            return redirect(url_for("auth.login"))
        course = join(user, wanted["join_code"]) if wanted["join_code"] else None
        sign_in(user)
        if course is not None:
            flash(f"Welcome! You joined {course.title}.", "info")
        elif wanted["join_code"]:
            flash("Your account is ready, but no course has that join code any more.", "error")
        return redirect(url_for("student.home"))
    return render_template(
        "auth/new_password.html", form=form, email=wanted["email"], title="Choose a password"
    )


@blueprint.route("/forgot", methods=["GET", "POST"])
@limits.mail_limited
def forgot() -> str | Response:
    """Ask for a reset link; the answer is the same whether the address has an account."""
    form = ForgotForm()
    if form.validate_on_submit():
        email = identities.normalise_email(form.email.data or "")
        user = find_user(email)
        if user is not None and not identities.is_placeholder(user.email):
            token = identities.reset_token(settings().effective_secret_key, user)
            message = mail.Message(
                to=user.email,
                subject="Reset your password",
                body=(
                    "To choose a new password for the game-tree grader, open this link "
                    "(it works once, for an hour):\n\n"
                    f"{external_url('auth.reset', token=token)}\n\n"
                    "If you did not ask for it, ignore this message: your password stays.\n"
                ),
            )
            mail.send(mailer(), message)
        return render_template("auth/check_mail.html", email=email, purpose="reset")
    return render_template("auth/forgot.html", form=form)


@blueprint.route("/reset/<token>", methods=["GET", "POST"])
def reset(token: str) -> str | Response | tuple[str, int]:
    """A reset link: a new password, and every session of the account ends."""
    db = db_session()
    try:
        user = identities.reset_user(db, settings().effective_secret_key, token)
    except identities.TokenRefused as refused:
        return render_template("auth/link_refused.html", message=refused.message), 400
    form = PasswordForm()
    if form.validate_on_submit():
        user.password_hash = hash_password(form.password.data or "")
        identities.bump_sessions(user)
        logout_user()
        flash("Your password is changed: sign in with it.", "info")
        return redirect(url_for("auth.login"))
    return render_template(
        "auth/new_password.html", form=form, email=user.email, title="Choose a new password"
    )


@blueprint.route("/join", methods=["GET", "POST"])
@login_required
def join_course() -> str | Response:
    form = JoinForm()
    if form.validate_on_submit():
        course = join(current_user, form.join_code.data or "")
        if course is None:
            form.join_code.errors = [_unknown_code(form.join_code.data or "")]
        else:
            flash(f"You joined {course.title}.", "info")
            return redirect(url_for("student.home"))
    return render_template("auth/join.html", form=form)
