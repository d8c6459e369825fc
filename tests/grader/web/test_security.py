"""Security headers on every response, trusted hosts, who may read /metrics, and the
endpoint that logs the browsers' Content-Security-Policy violation reports."""

from __future__ import annotations

import json
import logging
from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskClient

from grader.config import ConfigError, Settings
from grader.db import Database
from grader.models import Course, Role, User
from grader.web import create_app
from grader.web.security import CSP, REPORT_LIMIT_BYTES
from tests.grader.conftest import UserFactory

EXPECTED = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
VIOLATION = {
    "csp-report": {
        "document-uri": "http://localhost/exercises/1",
        "violated-directive": "style-src-attr",
        "effective-directive": "style-src-attr",
        "blocked-uri": "inline",
        "source-file": "http://localhost/exercises/1",
        "line-number": 12,
    }
}


def app_with(settings: Settings, database: Database, **changes: object) -> Flask:
    return create_app(replace(settings, **changes), database)


@pytest.mark.parametrize(
    "path",
    ["/login", "/register", "/static/grader.css", "/api/v1/openapi.json", "/no-such-page",
     "/api/v1/no-such-thing", "/healthz"],
)  # fmt: skip
def test_every_response_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)

    assert response.status_code < 500
    assert response.headers["Content-Security-Policy"] == CSP
    for name, value in EXPECTED.items():
        assert response.headers[name] == value
    assert "Strict-Transport-Security" not in response.headers


def test_the_policy_allows_no_inline_script_or_style() -> None:
    directives = dict(part.strip().split(" ", 1) for part in CSP.split(";"))

    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert "unsafe" not in CSP


def test_signed_in_pages_carry_the_headers_too(
    client: FlaskClient, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))

    for path in ("/", "/teach/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["Content-Security-Policy"] == CSP


def test_https_public_url_adds_strict_transport_security(
    settings: Settings, database: Database
) -> None:
    app = app_with(settings, database, public_url="https://grader.example")

    response = app.test_client().get("/login", base_url="https://grader.example")

    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


# -- trusted hosts --


def test_another_host_is_refused_with_a_readable_page(
    settings: Settings, database: Database
) -> None:
    app = app_with(settings, database, trusted_hosts=("grader.example",))

    response = app.test_client().get("/login", headers={"Host": "evil.example"})

    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "<h1>400 Bad Request</h1>" in page
    assert "evil.example" in page and "not trusted" in page
    assert "Traceback" not in page
    assert response.headers["X-Frame-Options"] == "DENY"


def test_another_host_is_refused_on_the_api_too(settings: Settings, database: Database) -> None:
    app = app_with(settings, database, public_url="https://grader.example")

    response = app.test_client().get("/api/v1/openapi.json", headers={"Host": "evil.example"})

    assert response.status_code == 400


@pytest.mark.parametrize(
    "host",
    ["grader.example", "grader.example:8443", "lms.example", "127.0.0.1:8000", "localhost"],
)
def test_the_public_urls_host_and_the_trusted_hosts_are_answered(
    settings: Settings, database: Database, host: str
) -> None:
    app = app_with(
        settings,
        database,
        public_url="https://grader.example:8443",
        trusted_hosts=("lms.example",),
    )

    response = app.test_client().get("/login", headers={"Host": host})

    assert response.status_code == 200


def test_without_hosts_configured_any_host_is_answered(client: FlaskClient) -> None:
    response = client.get("/login", headers={"Host": "anything.example"})

    assert response.status_code == 200


# -- /metrics --


def test_metrics_are_open_to_loopback(client: FlaskClient) -> None:
    response = client.get("/metrics")

    assert response.status_code == 200
    assert "grader_" in response.get_data(as_text=True)


def test_metrics_are_refused_to_other_addresses(client: FlaskClient) -> None:
    response = client.get("/metrics", environ_base={"REMOTE_ADDR": "203.0.113.9"})

    assert response.status_code == 403
    assert "grader_" not in response.get_data(as_text=True)


def test_a_forwarded_for_header_does_not_open_metrics(client: FlaskClient) -> None:
    response = client.get(
        "/metrics",
        environ_base={"REMOTE_ADDR": "203.0.113.9"},
        headers={"X-Forwarded-For": "127.0.0.1"},
    )

    assert response.status_code == 403


def test_behind_a_proxy_the_allow_list_holds_the_client_the_proxy_forwarded(
    settings: Settings, database: Database
) -> None:
    app = app_with(settings, database, proxy_hops=1, metrics_allow=("203.0.113.9",))
    client = app.test_client()
    proxy = {"REMOTE_ADDR": "127.0.0.1"}

    def metrics(forwarded_for: str) -> int:
        headers = {"X-Forwarded-For": forwarded_for}
        return client.get("/metrics", environ_base=proxy, headers=headers).status_code

    assert metrics("203.0.113.9") == 200
    assert metrics("198.51.100.4") == 403
    # A client's own claim comes first; the proxy appends the address it saw.
    assert metrics("203.0.113.9, 198.51.100.4") == 403
    assert client.get("/metrics", environ_base=proxy).status_code == 403  # the proxy itself


def test_proxy_hops_are_read_from_the_environment_and_never_negative() -> None:
    assert Settings().proxy_hops == 0
    assert Settings.from_env({"GRADER_PROXY_HOPS": "2"}).proxy_hops == 2
    with pytest.raises(ConfigError, match="GRADER_PROXY_HOPS must be 0 or more"):
        Settings.from_env({"GRADER_PROXY_HOPS": "-1"}).checked()


def test_the_metrics_token_opens_metrics_from_anywhere(
    settings: Settings, database: Database
) -> None:
    app = app_with(settings, database, metrics_token="s3cret-metrics-token")
    client = app.test_client()
    far = {"REMOTE_ADDR": "203.0.113.9"}

    good = client.get(
        "/metrics", environ_base=far, headers={"Authorization": "Bearer s3cret-metrics-token"}
    )
    wrong = client.get("/metrics", environ_base=far, headers={"Authorization": "Bearer nope"})
    bare = client.get("/metrics", environ_base=far)

    assert good.status_code == 200
    assert "grader_" in good.get_data(as_text=True)
    assert (wrong.status_code, bare.status_code) == (403, 403)


def test_metrics_allow_is_the_list_of_addresses(settings: Settings, database: Database) -> None:
    app = app_with(settings, database, metrics_allow=("10.1.2.3",))
    client = app.test_client()

    allowed = client.get("/metrics", environ_base={"REMOTE_ADDR": "10.1.2.3"})
    loopback = client.get("/metrics")

    assert (allowed.status_code, loopback.status_code) == (200, 403)


# -- CSP violation reports --


def test_a_violation_report_is_logged(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="grader.web.security")

    response = client.post(
        "/csp-report", data=json.dumps(VIOLATION), content_type="application/csp-report"
    )

    assert response.status_code == 204
    [record] = [r for r in caplog.records if r.name == "grader.web.security"]
    message = record.getMessage()
    assert "style-src-attr" in message and "inline" in message
    assert "http://localhost/exercises/1" in message


def test_a_reporting_api_batch_is_logged(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="grader.web.security")
    batch = [
        {
            "type": "csp-violation",
            "body": {"effectiveDirective": "script-src-elem", "blockedURL": "inline"},
        }
    ]

    response = client.post(
        "/csp-report", data=json.dumps(batch), content_type="application/reports+json"
    )

    assert response.status_code == 204
    assert any("script-src-elem" in r.getMessage() for r in caplog.records)


def test_a_large_report_is_refused(client: FlaskClient) -> None:
    body = json.dumps({"csp-report": {"blocked-uri": "x" * REPORT_LIMIT_BYTES}})

    response = client.post("/csp-report", data=body, content_type="application/csp-report")

    assert response.status_code == 413


def test_a_report_that_is_not_json_is_refused(client: FlaskClient) -> None:
    response = client.post("/csp-report", data="<xml/>", content_type="application/csp-report")

    assert response.status_code == 400


def test_reports_are_rate_limited(client: FlaskClient) -> None:
    body = json.dumps(VIOLATION)
    statuses = [
        client.post("/csp-report", data=body, content_type="application/csp-report").status_code
        for _ in range(70)
    ]

    assert statuses[:60] == [204] * 60
    assert statuses[-1] == 429


def login(client: FlaskClient, user: User) -> None:
    """Signed in as ``user`` through Flask-Login's session key (``User.get_id``)."""
    with client.session_transaction() as session:
        session["_user_id"] = user.get_id()
        session["_fresh"] = True
