"""After signing in, ``next=`` leads only to a path on this site: never to another host,
however the address is disguised, and never to an error."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from grader.web.auth import safe_next
from tests.grader.conftest import PASSWORD, UserFactory, csrf_token

HOSTILE = [
    "/%09/127.0.0.1:8299/phish",
    "/%0a/127.0.0.1:8299/phish",
    "/%0d/127.0.0.1:8299/phish",
    "/%0d%0a/evil.example",
    "/\\evil.example",
    "/%5Cevil.example",
    "https://evil.example/",
    "//evil.example/",
    "/%20/evil.example",
    "javascript:alert(1)",
    "%2F%2Fevil.example",
]


@pytest.mark.parametrize("next_value", HOSTILE)
def test_a_next_that_leaves_the_site_leads_home_instead(
    client: FlaskClient, make_user: UserFactory, next_value: str
) -> None:
    student = make_user()
    response = client.post(
        f"/login?next={next_value}",
        data={"email": student.email, "password": PASSWORD, "csrf_token": csrf_token(client)},
    )

    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert client.get("/").status_code == 200  # signed in all the same


def test_a_path_on_the_site_is_followed(client: FlaskClient, make_user: UserFactory) -> None:
    student = make_user()
    response = client.post(
        "/login?next=/exercises/3%3Ftab%3Dfeedback",
        data={"email": student.email, "password": PASSWORD, "csrf_token": csrf_token(client)},
    )

    assert response.status_code == 302
    assert response.headers["Location"] == "/exercises/3?tab=feedback"


@pytest.mark.parametrize(
    "target",
    ["/\t/evil", "/\n/evil", "/\r/evil", "/\\evil", "\\\\evil", "//evil", "https://evil",
     "/ /evil", "/\x7f/evil", "", "evil", "http:/evil"],
)  # fmt: skip
def test_safe_next_refuses_what_a_browser_could_read_as_another_host(target: str) -> None:
    assert safe_next(target) is None


def test_safe_next_keeps_paths_and_queries() -> None:
    assert safe_next("/teach/exercises/4?x=1#top") == "/teach/exercises/4?x=1#top"
