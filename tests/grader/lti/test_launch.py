"""The OIDC login and the launch against the simulated platform: who is signed in, which
course and exercise, what is recorded; and every launch that must be refused."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask.testing import FlaskClient
from sqlalchemy import select

from grader.db import Database
from grader.lti.launch import SCORE_SCOPE
from grader.models import (
    Course,
    Exercise,
    ExternalIdentity,
    LtiContext,
    LtiLaunch,
    Membership,
    Role,
    User,
)
from tests.grader.lti.conftest import launch, people, signed_in, start_login
from tests.grader.lti.platform import DROP, INSTRUCTOR, Platform, new_key


def test_login_initiation_sends_the_browser_to_the_platform_with_state_and_nonce(
    client: FlaskClient, platform: Platform, registered: int
) -> None:
    login = start_login(client, platform, lti_message_hint="hint-9")

    location = urlsplit(login.response.headers["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == platform.auth_login_url
    assert login.params["client_id"] == platform.client_id
    assert login.params["redirect_uri"] == "http://localhost/lti/launch"
    assert login.params["response_type"] == "id_token"
    assert login.params["response_mode"] == "form_post"
    assert login.params["scope"] == "openid"
    assert login.params["login_hint"] == "lms-user-42"
    assert login.params["lti_message_hint"] == "hint-9"
    assert login.state.startswith("state-") and len(login.nonce) >= 32
    cookies = login.response.headers.getlist("Set-Cookie")
    assert any(cookie.startswith(f"lti1p3-{login.state}=") for cookie in cookies)
    assert any(cookie.startswith(f"lti1p3-nonce-{login.nonce}=") for cookie in cookies)


def test_a_login_from_an_unknown_issuer_is_refused_with_a_page(
    client: FlaskClient, platform: Platform, registered: int
) -> None:
    response = client.get(
        "/lti/login",
        query_string={"iss": "https://other.example", "login_hint": "x", "client_id": "c"},
    )
    assert response.status_code == 400
    assert "The login from the platform was refused" in response.get_data(as_text=True)


def test_a_learner_s_first_launch_makes_the_account_course_and_membership_and_signs_in(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform)

    assert response.status_code == 302, response.get_data(as_text=True)
    with database.session() as session:
        identity = session.scalars(select(ExternalIdentity)).one()
        assert (identity.source, identity.external_id) == (platform.issuer, "lms-user-42")
        user = session.get(User, identity.user_id)
        assert user is not None
        assert (user.name, user.lms_email, user.role) == (
            "Ada Lovelace",
            "ada@lms.example.edu",
            Role.STUDENT,
        )
        assert user.email.endswith("@lti.invalid")
        assert user.password_hash is None
        context = session.scalars(select(LtiContext)).one()
        assert (context.platform_id, context.context_id) == (registered, "ctx-cs4100")
        course = session.get(Course, context.course_id)
        assert course is not None and course.title == "CS 4100 AI"
        assert course.join_code.startswith("LTI-")
        membership = session.scalars(select(Membership)).one()
        assert (membership.user_id, membership.course_id, membership.role) == (
            user.id,
            course.id,
            Role.STUDENT,
        )
        exercise = session.scalars(select(Exercise).where(Exercise.course_id == course.id)).one()
        assert exercise.slug == "aima-fig5.2-alphabeta"
        assert exercise.published and exercise.current_version_id is not None
        record = session.scalars(select(LtiLaunch)).one()
        assert (record.platform_id, record.user_id, record.exercise_id) == (
            registered,
            user.id,
            exercise.id,
        )
        assert record.subject == "lms-user-42"
        assert record.resource_link_id == "link-fig52"
        assert record.lineitem_url == platform.lineitem_url
        assert SCORE_SCOPE in record.ags_scopes
    assert response.headers["Location"] == f"/exercises/{exercise.id}"
    assert signed_in(client) == str(user.id)
    # The login's cookies are spent.
    gone = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("lti1p3-")]
    assert len(gone) == 2 and all("Max-Age=0" in cookie for cookie in gone)


def test_launching_again_finds_the_same_account_and_course_and_updates_the_record(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    assert launch(client, platform).status_code == 302
    other_lineitem = platform.base + "/lineitems/8"
    ags = {"scope": [SCORE_SCOPE], "lineitem": other_lineitem}
    assert launch(client, platform, name="Ada King", endpoint=ags).status_code == 302

    assert people(database) == (1, 1)
    with database.session() as session:
        assert len(session.scalars(select(Course)).all()) == 1
        assert len(session.scalars(select(Membership)).all()) == 1
        (record,) = session.scalars(select(LtiLaunch)).all()
        assert record.lineitem_url == other_lineitem
        (user,) = session.scalars(select(User)).all()
        assert user.name == "Ada King"


def test_an_instructor_launch_makes_an_instructor_of_the_course(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, roles=[INSTRUCTOR], sub="teacher-1")

    assert response.status_code == 302
    with database.session() as session:
        (user,) = session.scalars(select(User)).all()
        (membership,) = session.scalars(select(Membership)).all()
        assert (user.role, membership.role) == (Role.INSTRUCTOR, Role.INSTRUCTOR)


def test_the_exercise_may_be_named_by_the_resource_link_s_title(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    link = {"id": "link-2", "title": "aima-fig5.2-minimax"}
    response = launch(client, platform, custom=DROP, resource_link=link)

    assert response.status_code == 302, response.get_data(as_text=True)
    with database.session() as session:
        exercise = session.scalars(select(Exercise)).one()
        assert exercise.slug == "aima-fig5.2-minimax"
        assert response.headers["Location"] == f"/exercises/{exercise.id}"


def test_a_link_to_no_known_exercise_is_refused_with_a_readable_page(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, custom={"exercise": "no-such-exercise"})

    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "no-such-exercise" in page and "custom parameter exercise=" in page
    assert "Traceback" not in page
    assert people(database) == (0, 0)
    assert signed_in(client) is None


def refused(response_page: str, client: FlaskClient, database: Database) -> None:
    assert "This launch was refused" in response_page
    assert "Traceback" not in response_page
    assert people(database) == (0, 0)
    assert signed_in(client) is None


def test_an_id_token_signed_with_another_key_is_refused(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, key=new_key())

    assert response.status_code == 403
    refused(response.get_data(as_text=True), client, database)
    assert "Signature verification failed" in response.get_data(as_text=True)


def test_an_id_token_for_another_audience_is_refused(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, aud="some-other-tool")

    assert response.status_code == 403
    refused(response.get_data(as_text=True), client, database)


def test_an_id_token_for_several_audiences_needs_this_tool_as_authorized_party(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, aud=[platform.client_id, "another-tool"])

    assert response.status_code == 403
    refused(response.get_data(as_text=True), client, database)
    assert "authorized party" in response.get_data(as_text=True)


def test_an_id_token_from_an_unknown_issuer_is_refused(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, iss="https://evil.example")

    assert response.status_code == 403
    refused(response.get_data(as_text=True), client, database)


def test_an_id_token_without_a_nonce_is_refused(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, nonce=None)

    assert response.status_code == 403
    refused(response.get_data(as_text=True), client, database)


def test_an_id_token_with_a_nonce_this_browser_was_not_given_is_refused(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, nonce="made-up-nonce")

    assert response.status_code == 403
    refused(response.get_data(as_text=True), client, database)


def test_an_expired_id_token_is_refused(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, exp=1_000_000, iat=999_000)

    assert response.status_code == 403
    refused(response.get_data(as_text=True), client, database)


def test_an_unknown_deployment_is_refused(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, deployment_id="deployment-other")

    assert response.status_code == 403
    refused(response.get_data(as_text=True), client, database)


def test_a_replayed_launch_is_refused_even_with_the_login_s_cookies_put_back(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    login = start_login(client, platform)
    saved = {
        name: client.get_cookie(name)
        for name in (f"lti1p3-{login.state}", f"lti1p3-nonce-{login.nonce}")
    }
    form = {"id_token": platform.id_token(login.nonce), "state": login.state}
    assert client.post("/lti/launch", data=form).status_code == 302

    again = client.post("/lti/launch", data=form)
    assert again.status_code == 403
    for name, cookie in saved.items():
        assert cookie is not None
        client.set_cookie(name, cookie.value)
    with_cookies = client.post("/lti/launch", data=form)
    assert with_cookies.status_code == 403
    assert "Invalid Nonce" in with_cookies.get_data(as_text=True)
    assert people(database) == (1, 1)


def test_a_launch_without_the_login_s_state_cookie_is_refused(
    database: Database, platform: Platform, registered: int, client: FlaskClient
) -> None:
    login = start_login(client, platform)
    client.delete_cookie(f"lti1p3-{login.state}")
    form = {"id_token": platform.id_token(login.nonce), "state": login.state}

    response = client.post("/lti/launch", data=form)
    assert response.status_code == 403
    refused(response.get_data(as_text=True), client, database)


def test_an_id_token_without_an_expiry_is_refused(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, exp=DROP)

    assert response.status_code == 403
    refused(response.get_data(as_text=True), client, database)
    assert "Token is missing the &#34;exp&#34; claim." in response.get_data(as_text=True)


def test_a_subject_too_long_to_keep_is_refused(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    response = launch(client, platform, sub="x" * 301)

    assert response.status_code == 400
    refused(response.get_data(as_text=True), client, database)
