"""Signing in and out, creating a student account, joining a course by its code."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user
from flask_wtf import FlaskForm
from sqlalchemy import func, select
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response
from wtforms import EmailField, PasswordField, StringField
from wtforms.validators import DataRequired, Email, Length, Optional

from grader.models import Course, Membership, Role, User
from grader.web.context import db_session

blueprint = Blueprint("auth", __name__)


class LoginForm(FlaskForm):
    email = EmailField("Email", validators=[DataRequired(), Email()])
    password = PasswordField("Password", validators=[DataRequired()])


class RegisterForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(), Length(max=200)])
    email = EmailField("Email", validators=[DataRequired(), Email(), Length(max=254)])
    password = PasswordField("Password", validators=[DataRequired(), Length(min=8, max=200)])
    join_code = StringField("Course join code", validators=[Optional(), Length(max=40)])


class JoinForm(FlaskForm):
    join_code = StringField("Course join code", validators=[DataRequired(), Length(max=40)])


def hash_password(password: str) -> str:
    return generate_password_hash(password)


def find_user(email: str) -> User | None:
    return db_session().scalar(select(User).where(func.lower(User.email) == email.lower()))


def join(user: User, code: str) -> Course | None:
    """Enrol ``user`` as a student in the course with ``code`` (None: no such course)."""
    session = db_session()
    course = session.scalar(select(Course).where(Course.join_code == code.strip()))
    if course is None:
        return None
    exists = session.scalar(
        select(Membership).where(Membership.user_id == user.id, Membership.course_id == course.id)
    )
    if exists is None:
        session.add(Membership(user_id=user.id, course_id=course.id, role=Role.STUDENT))
    return course


@blueprint.route("/login", methods=["GET", "POST"])
def login() -> str | Response:
    form = LoginForm()
    if form.validate_on_submit():
        user = find_user(form.email.data or "")
        if (
            user is not None
            and user.password_hash
            and check_password_hash(user.password_hash, form.password.data or "")
        ):
            login_user(user)
            return redirect(_next_url())
        flash("Wrong email or password.", "error")
    return render_template("auth/login.html", form=form)


def _next_url() -> str:
    target = request.args.get("next", "")
    # Only paths on this site, never another host.
    if target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("student.home")


@blueprint.route("/logout", methods=["POST"])
def logout() -> Response:
    logout_user()
    return redirect(url_for("auth.login"))


@blueprint.route("/register", methods=["GET", "POST"])
def register() -> str | Response:
    form = RegisterForm()
    if form.validate_on_submit():
        session = db_session()
        if find_user(form.email.data or "") is not None:
            flash("An account with this email exists: sign in instead.", "error")
            return render_template("auth/register.html", form=form)
        user = User(
            name=form.name.data or "",
            email=(form.email.data or "").strip(),
            password_hash=hash_password(form.password.data or ""),
            role=Role.STUDENT,
        )
        session.add(user)
        session.flush()
        if form.join_code.data and join(user, form.join_code.data) is None:
            session.rollback()
            flash("No course has this join code.", "error")
            return render_template("auth/register.html", form=form)
        session.commit()
        login_user(user)
        return redirect(url_for("student.home"))
    return render_template("auth/register.html", form=form)


@blueprint.route("/join", methods=["GET", "POST"])
@login_required
def join_course() -> str | Response:
    form = JoinForm()
    if form.validate_on_submit():
        course = join(current_user, form.join_code.data or "")
        if course is None:
            flash("No course has this join code.", "error")
        else:
            db_session().commit()
            flash(f"You joined {course.title}.", "info")
            return redirect(url_for("student.home"))
    return render_template("auth/join.html", form=form)
