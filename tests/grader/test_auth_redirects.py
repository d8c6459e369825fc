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
    "/%20/evil.example",
]
"""``next=`` values that the browser reads as another host (tabs, new lines and white space
dropped, ``\\`` read as ``/``); ``https://evil`` and ``//evil`` were refused before and
are checked with :func:`safe_next` below."""


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


@pytest.mark.parametrize(
    "target",
    ["/\t/evil", "/\n/evil", "/\r/evil", "/\\evil", "\\\\evil", "//evil", "https://evil",
     "/ /evil", "/\x7f/evil", "", "evil", "http:/evil", "javascript:alert(1)", "///evil"],
)  # fmt: skip
def test_safe_next_refuses_what_a_browser_could_read_as_another_host(target: str) -> None:
    assert safe_next(target) is None


def test_safe_next_keeps_paths_and_queries() -> None:
    assert safe_next("/teach/exercises/4?x=1#top") == "/teach/exercises/4?x=1#top"
    assert safe_next("/") == "/"
