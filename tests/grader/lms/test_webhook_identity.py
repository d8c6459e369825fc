"""An LMS naming a person's address does not take it: the person can still create their
own account with it and sign in, and the two accounts stay apart."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from grader.db import Database
from grader.models import Course, User
from grader.services.mail import Outbox
from tests.grader.conftest import csrf_token
from tests.grader.lms import make_lms, submission

ADDRESS = "ada@uni.example.edu"
PASSWORD = "the real Ada's passphrase"


def test_an_address_named_by_a_webhook_can_still_be_registered_by_its_owner(
    app: Flask, client: FlaskClient, database: Database, course: Course
) -> None:
    lms = make_lms(client, database, course)
    body = submission()
    body["user"]["email"] = "Ada@Uni.Example.EDU"
    assert lms.post(body).status_code == 202

    outbox = app.extensions["grader.mail"] = Outbox()
    person = app.test_client()
    response = person.post(
        "/register",
        data={
            "name": "Ada",
            "email": ADDRESS,
            "join_code": "",
            "csrf_token": csrf_token(person),
        },
    )
    assert response.status_code == 200
    (message,) = outbox.to(ADDRESS)
    assert "already have an account" not in message.body
    link = re.search(r"https?://[^/\s]+(/register/\S+)", message.body)
    assert link is not None, message.body
    chosen = person.post(
        link.group(1),
        data={"password": PASSWORD, "confirm": PASSWORD, "csrf_token": csrf_token(person)},
    )
    assert chosen.status_code == 302

    again = app.test_client()
    signed_in = again.post(
        "/login",
        data={"email": ADDRESS.upper(), "password": PASSWORD, "csrf_token": csrf_token(again)},
    )
    assert signed_in.status_code == 302 and signed_in.headers["Location"] == "/"
    with database.session() as session:
        owners = session.scalars(
            select(User).where((func.lower(User.email) == ADDRESS) | (User.lms_email == ADDRESS))
        ).all()
        assert len(owners) == 2
        (lms_made,) = [user for user in owners if user.password_hash is None]
        assert lms_made.email.endswith("@lms.invalid")
