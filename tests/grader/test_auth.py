"""Signing in and out, creating an account, joining a course; CSRF on every form."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.db import Database
from grader.models import Course, Membership, User
from grader.services.mail import Outbox
from tests.grader.conftest import PASSWORD, UserFactory, csrf_token, login


def test_sign_in_and_out(client: FlaskClient, make_user: UserFactory) -> None:
    student = make_user()
    assert client.get("/").status_code == 302  # the exercises need an account
    login(client, student)
    assert client.get("/").status_code == 200
    assert client.post("/logout", data={"csrf_token": csrf_token(client)}).status_code == 302
    assert client.get("/").status_code == 302


def test_a_wrong_password_is_refused(client: FlaskClient, make_user: UserFactory) -> None:
    student = make_user()
    page = client.post(
        "/login",
        data={"email": student.email, "password": "not it", "csrf_token": csrf_token(client)},
    )
    assert page.status_code == 200
    assert "Wrong email or password" in page.get_data(as_text=True)


def test_a_form_without_its_csrf_token_is_refused(
    client: FlaskClient, make_user: UserFactory
) -> None:
    student = make_user()
    page = client.post("/login", data={"email": student.email, "password": PASSWORD})
    assert page.status_code in (200, 400)
    assert client.get("/").status_code == 302  # not signed in
    tampered = client.post(
        "/login", data={"email": student.email, "password": PASSWORD, "csrf_token": "x" * 40}
    )
    assert client.get("/").status_code == 302
    assert tampered.status_code in (200, 400)
    assert "Traceback" not in tampered.get_data(as_text=True)


def test_register_with_a_join_code(
    app: Flask, client: FlaskClient, course: Course, database: Database
) -> None:
    outbox = app.extensions["grader.mail"] = Outbox()
    page = client.post(
        "/register",
        data={
            "name": "Ada",
            "email": "Ada@Example.edu ",
            "join_code": course.join_code,
            "csrf_token": csrf_token(client),
        },
    )
    assert page.status_code == 200
    assert "Check your mail" in page.get_data(as_text=True)
    (message,) = outbox.to("ada@example.edu")
    link = re.search(r"http://localhost(/register/\S+)", message.body)
    assert link, message.body
    token = csrf_token(client)
    made = client.post(
        link.group(1),
        data={
            "password": "long enough password",
            "confirm": "long enough password",
            "csrf_token": token,
        },
    )
    assert made.status_code == 302
    with database.session() as session:
        user = session.scalars(select(User).where(User.email == "ada@example.edu")).one()
        assert user.role == "student" and user.password_hash != "long enough password"
        member = session.scalars(select(Membership).where(Membership.user_id == user.id)).one()
        assert member.course_id == course.id
    assert client.get("/").status_code == 200  # signed in
