"""Result callbacks against a real HTTP receiver on loopback that checks every signature
with the standardwebhooks library: delivered once, retried, 410, redirects, Retry-After,
the 26-hour window, internal errors, URLs checked again before each attempt."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import ssl
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from grader.config import Settings
from grader.db import Database
from grader.lms import callbacks, urls
from grader.models import (
    CallbackEndpoint,
    Course,
    Delivery,
    DeliveryAttempt,
    DeliveryState,
    Exercise,
    GradingRun,
    Integration,
    LmsSubmission,
    Submission,
    utcnow,
)
from grader.services.deliveries import attempt
from grader.services.submissions import submit
from tests import servers
from tests.grader.conftest import UserFactory, stored_report
from worker.execute import execute_run

LIBRARY = Path(__file__).resolve().parents[3] / "exercises" / "implementations" / "alphabeta"


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


@dataclass
class Received:
    """One request the receiver got, and whether its signature held."""

    path: str
    headers: dict[str, str]
    body: bytes
    verified: bool
    problem: str = ""

    @property
    def payload(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    """An LMS's callback endpoint on loopback: answers from a script, then ``default``;
    checks each request's signature against ``secret``."""

    secret: str
    answers: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    default: tuple[int, dict[str, str]] = (200, {})
    got: list[Received] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.server_address[1])

    def url(self, path: str = "/lms/callback") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def start(self, tls: tuple[Path, Path] | None = None) -> Receiver:
        """Serve in a thread; over TLS with ``tls`` (certificate and key files)."""
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = dict(self.headers.items())
                try:
                    Webhook(receiver.secret).verify(body, headers)
                    verified, problem = True, ""
                except WebhookVerificationError as error:
                    verified, problem = False, str(error)
                receiver.got.append(Received(self.path, headers, body, verified, problem))
                status, extra = receiver.answers.pop(0) if receiver.answers else receiver.default
                self.send_response(status)
                for name, value in extra.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        servers.start(self.server)
        return self

    def stop(self) -> None:
        if self.server is not None:
            servers.stop(self.server)


@pytest.fixture(autouse=True)
def loopback_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The receiver lives on loopback, which production refuses."""
    monkeypatch.setattr(callbacks, "ALLOW_PRIVATE", True)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver(new_secret()).start()
    yield found
    found.stop()


def make_integration(
    database: Database, course: Course, secret: str, hosts: list[str] | None = None
) -> int:
    with database.session() as session:
        integration = Integration(
            course_id=course.id,
            name="Moodle",
            allowed_hosts=["127.0.0.1"] if hosts is None else hosts,
            secret=secret,
            token_hash=hashlib.sha256(secrets.token_bytes(16)).hexdigest(),
        )
        session.add(integration)
        session.flush()
        return integration.id


def lms_submission(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    integration_id: int,
    callback_url: str | None,
    name: str = "correct_fail_hard.py",
) -> tuple[int, int]:
    """A submission that came through the integration with ``callback_url``, not yet
    graded: its id and its run's id."""
    student = make_user(course=course)
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(
                Exercise.course_id == course.id, Exercise.slug == "aima-fig5.2-alphabeta"
            )
        ).one()
        submission = submit(
            session, settings, student, exercise, name, (LIBRARY / name).read_text(), origin="lms"
        )
        session.add(
            LmsSubmission(
                submission_id=submission.id,
                integration_id=integration_id,
                callback_url=callback_url,
                context_id="course-42",
                lms_user_id=f"lms-user-{student.id}",
                webhook_id=f"msg_in_{submission.id}",
            )
        )
        session.flush()
        run_id = session.scalars(
            select(GradingRun.id).where(GradingRun.submission_id == submission.id)
        ).one()
        return submission.id, run_id


def graded(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    integration_id: int,
    url: str,
    name: str = "correct_fail_hard.py",
) -> tuple[int, int]:
    """A submission with a callback, graded (its callback's first attempt made, eagerly)."""
    submission_id, run_id = lms_submission(
        database, settings, course, make_user, integration_id, url, name
    )
    execute_run(database, settings, run_id, worker="test", task_id="test")
    return submission_id, run_id


def deliveries_of(database: Database, submission_id: int) -> list[Delivery]:
    with database.session() as session:
        found = list(
            session.scalars(
                select(Delivery)
                .where(Delivery.submission_id == submission_id)
                .order_by(Delivery.id)
            )
        )
        for delivery in found:
            delivery.log  # noqa: B018 - loaded while the session is open
        return found


def student_of(database: Database, submission_id: int) -> int:
    with database.session() as session:
        found = session.get(Submission, submission_id)
        assert found is not None
        return found.user_id


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def try_when_due(database: Database, delivery_id: int) -> float | None:
    """One more attempt, as the sweep would make it when the planned time has come."""
    with database.sessions() as session:
        delivery = session.get(Delivery, delivery_id)
        assert delivery is not None and delivery.next_attempt_at is not None
        due = aware(delivery.next_attempt_at) + timedelta(seconds=1)
    with database.sessions() as session:
        return attempt(session, delivery_id, now=due)


def test_a_graded_submission_is_called_back_once_signed_with_its_report(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, run_id = graded(
        database, settings, course, make_user, integration_id, receiver.url()
    )

    (delivery,) = deliveries_of(database, submission_id)
    assert (delivery.state, delivery.attempts, delivery.event) == (
        DeliveryState.DELIVERED,
        1,
        "submission.graded",
    )
    assert [row.status_code for row in delivery.log] == [200]
    (got,) = receiver.got
    assert got.verified, got.problem
    assert got.path == "/lms/callback"
    assert got.headers["webhook-id"] == delivery.message_id
    assert delivery.message_id.startswith("msg_")
    assert got.headers["Content-Type"] == "application/json"
    assert got.headers["User-Agent"] == callbacks.USER_AGENT
    assert got.headers["Host"] == f"127.0.0.1:{receiver.port}"
    body = got.payload
    assert body["type"] == "submission.graded"
    assert body["timestamp"].endswith("Z")
    with database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
    report = stored_report(database, run_id)
    assert body["data"] == {
        "submission_id": submission_id,
        "attempt": 1,
        "status": "graded",
        "user_id": f"lms-user-{student_of(database, submission_id)}",
        "context_id": "course-42",
        "webhook_id": f"msg_in_{submission_id}",
        "report": report,
        "grade": {
            "score": report["score"],
            "max_score": report["max_score"],
            "overridden": False,
            "comment": None,
            "due_at": None,
            "extended": False,
            "best_attempt": 1,
            "attempt": {
                "attempt": 1,
                "raw_score": report["score"],
                "score": report["score"],
                "late": False,
                "days_late": 0,
                "penalty_percent": 0.0,
            },
        },
    }
    assert report["verdict"] == "passed" and report["cases"][0]["nodes"]


def test_a_receiver_failing_three_times_gets_the_event_exactly_once_more(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    receiver.answers = [(500, {})] * 3
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())
    (delivery,) = deliveries_of(database, submission_id)
    assert delivery.state == DeliveryState.PENDING and (delivery.last_error or "").startswith(
        "HTTP 500"
    )

    waits = [try_when_due(database, delivery.id) for _ in range(3)]
    assert waits[0] is not None and waits[1] is not None and waits[2] is None
    assert waits[1] > waits[0] / 2  # backing off (with jitter over the upper half)
    with database.sessions() as session:
        assert attempt(session, delivery.id, now=utcnow() + timedelta(days=1)) is None

    (delivery,) = deliveries_of(database, submission_id)
    assert (delivery.state, delivery.attempts) == (DeliveryState.DELIVERED, 4)
    assert [row.status_code for row in delivery.log] == [500, 500, 500, 200]
    assert [got.verified for got in receiver.got] == [True] * 4
    assert {got.headers["webhook-id"] for got in receiver.got} == {delivery.message_id}
    assert len({got.body for got in receiver.got}) == 1


def test_a_410_disables_the_endpoint_and_the_next_callback_is_not_sent(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    receiver.default = (410, {})
    integration_id = make_integration(database, course, receiver.secret)
    first, _ = graded(database, settings, course, make_user, integration_id, receiver.url())

    (delivery,) = deliveries_of(database, first)
    assert (delivery.state, delivery.attempts) == (DeliveryState.FAILED, 1)
    assert delivery.next_attempt_at is None and "410" in (delivery.last_error or "")
    with database.session() as session:
        endpoint = session.scalars(
            select(CallbackEndpoint).where(CallbackEndpoint.integration_id == integration_id)
        ).one()
        assert endpoint.url == receiver.url()
        assert endpoint.disabled_at is not None and "410" in (endpoint.disabled_reason or "")

    second, run_id = graded(database, settings, course, make_user, integration_id, receiver.url())
    with database.session() as session:
        assert session.get(GradingRun, run_id).state == "graded"  # type: ignore[union-attr]
    (unsent,) = deliveries_of(database, second)  # in the log, never sent
    assert (unsent.state, unsent.attempts) == (DeliveryState.FAILED, 0)
    assert "the endpoint is disabled" in (unsent.last_error or "")
    assert len(receiver.got) == 1


def test_a_redirect_is_a_failure_and_is_not_followed(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    receiver.answers = [(302, {"Location": receiver.url("/elsewhere")})]
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())

    (delivery,) = deliveries_of(database, submission_id)
    assert delivery.state == DeliveryState.PENDING
    assert [row.status_code for row in delivery.log] == [302]
    assert "not followed" in (delivery.last_error or "")
    assert [got.path for got in receiver.got] == ["/lms/callback"]


@pytest.mark.parametrize("in_date_form", [False, True])
def test_retry_after_is_honoured(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
    in_date_form: bool,
) -> None:
    two_hours = timedelta(hours=2)
    value = format_datetime(utcnow() + two_hours, usegmt=True) if in_date_form else "7200"
    receiver.answers = [(503, {"Retry-After": value})]
    integration_id = make_integration(database, course, receiver.secret)
    before = utcnow()
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())

    (delivery,) = deliveries_of(database, submission_id)
    assert delivery.state == DeliveryState.PENDING and delivery.next_attempt_at is not None
    assert aware(delivery.next_attempt_at) >= before + two_hours - timedelta(seconds=2)
    assert aware(delivery.next_attempt_at) <= utcnow() + two_hours + timedelta(seconds=2)


def test_retry_after_values() -> None:
    now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    assert callbacks.retry_after("120", now) == 120
    assert callbacks.retry_after("Mon, 02 Mar 2026 12:05:00 GMT", now) == 300
    assert callbacks.retry_after("Mon, 02 Mar 2026 11:00:00 GMT", now) == 0
    assert callbacks.retry_after("soon", now) is None
    assert callbacks.retry_after(None, now) is None


def test_retries_stop_after_the_26_hour_window_with_the_delivery_failed(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    receiver.default = (500, {})
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())
    (delivery,) = deliveries_of(database, submission_id)
    for _ in range(100):
        if try_when_due(database, delivery.id) is None:
            break

    (delivery,) = deliveries_of(database, submission_id)
    assert delivery.state == DeliveryState.FAILED and delivery.next_attempt_at is None
    assert (delivery.last_error or "").startswith("HTTP 500")
    assert 20 < delivery.attempts == len(receiver.got) < 100
    assert all(got.verified for got in receiver.got)
    with database.session() as session:
        tries = session.scalars(
            select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == delivery.id)
        ).all()
        assert len(tries) == delivery.attempts


def test_a_run_ending_in_internal_error_sends_submission_failed(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*_args: object, **_kwargs: object) -> dict[str, Any]:
        raise RuntimeError("the sandbox is gone")

    monkeypatch.setattr("worker.execute.grade", broken)
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())

    (delivery,) = deliveries_of(database, submission_id)
    assert (delivery.event, delivery.state) == ("submission.failed", DeliveryState.DELIVERED)
    (got,) = receiver.got
    assert got.verified
    body = got.payload
    assert body["type"] == "submission.failed"
    assert body["data"]["status"] == "error"
    assert body["data"]["report"]["verdict"] == "internal_error"
    assert "not your fault" in body["data"]["report"]["message"]
    assert body["data"]["report"]["cases"] == []


def test_no_callback_without_a_url_or_with_the_integration_disabled(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    integration_id = make_integration(database, course, receiver.secret)
    without_url, _ = graded(database, settings, course, make_user, integration_id, "")
    with database.session() as session:
        session.get(Integration, integration_id).enabled = False  # type: ignore[union-attr]
    disabled, _ = graded(database, settings, course, make_user, integration_id, receiver.url())

    assert deliveries_of(database, without_url) == deliveries_of(database, disabled) == []
    assert receiver.got == []


def test_the_url_is_checked_again_before_each_attempt(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    receiver.answers = [(500, {})]
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())
    with database.session() as session:
        integration = session.get(Integration, integration_id)
        assert integration is not None
        integration.allowed_hosts = ["lms.example.edu"]

    (delivery,) = deliveries_of(database, submission_id)
    assert try_when_due(database, delivery.id) is None
    (delivery,) = deliveries_of(database, submission_id)
    assert delivery.state == DeliveryState.FAILED
    assert "not among the integration's allowed hosts" in (delivery.last_error or "")
    assert [row.status_code for row in delivery.log] == [500, None]
    assert len(receiver.got) == 1


def test_private_addresses_are_refused_at_send_time_unless_allowed(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(callbacks, "ALLOW_PRIVATE", False)
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())

    (delivery,) = deliveries_of(database, submission_id)
    assert delivery.state == DeliveryState.FAILED
    assert "127.0.0.1, which is loopback" in (delivery.last_error or "")
    assert receiver.got == []


def test_the_connection_goes_to_the_checked_address_with_the_host_named(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []

    def dns(host: str, _port: int) -> list[str]:
        asked.append(host)
        return ["127.0.0.1"]

    monkeypatch.setattr(urls, "resolve", dns)
    integration_id = make_integration(database, course, receiver.secret, ["*.lms.test"])
    url = f"http://moodle.lms.test:{receiver.port}/hook?course=7"
    submission_id, _ = graded(database, settings, course, make_user, integration_id, url)

    (delivery,) = deliveries_of(database, submission_id)
    assert delivery.state == DeliveryState.DELIVERED
    (got,) = receiver.got
    assert got.verified and got.path == "/hook?course=7"
    assert got.headers["Host"] == f"moodle.lms.test:{receiver.port}"
    assert asked == ["moodle.lms.test"]  # once, by the check; never again by the connection


def test_an_unreachable_receiver_is_retried(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    integration_id = make_integration(database, course, receiver.secret)
    url = receiver.url()
    receiver.stop()
    submission_id, _ = graded(database, settings, course, make_user, integration_id, url)

    (delivery,) = deliveries_of(database, submission_id)
    assert delivery.state == DeliveryState.PENDING and delivery.next_attempt_at is not None
    assert [row.status_code for row in delivery.log] == [None]
    assert "could not connect" in (delivery.last_error or "")


def _compact_size(document: object) -> int:
    return len(json.dumps(document, separators=(",", ":")).encode())


@pytest.mark.parametrize("left_out", ["node lists and search replays", "trees"])
def test_a_large_report_is_sent_without_its_node_lists(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
    monkeypatch: pytest.MonkeyPatch,
    left_out: str,
) -> None:
    integration_id = make_integration(database, course, receiver.secret)
    graded(database, settings, course, make_user, integration_id, receiver.url())
    whole = receiver.got[0].payload["data"]["report"]
    assert "report_url" not in receiver.got[0].payload["data"]
    bulky = callbacks.BULKY
    bare = {
        **whole,
        "cases": [{k: v for k, v in c.items() if k not in bulky} for c in whole["cases"]],
    }
    full_size, bare_size = _compact_size(whole), _compact_size(bare)
    # A limit between the sizes with and without node lists and replays, or below both.
    limit = bare_size // 2 if left_out == "trees" else (full_size + bare_size) // 2
    monkeypatch.setattr(callbacks, "MAX_REPORT_BYTES", limit)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())

    got = receiver.got[1]
    assert got.verified
    data = got.payload["data"]
    assert data["report_url"] == f"/api/v1/submissions/{submission_id}"
    assert data["report_truncated"].startswith(f"{left_out} omitted")
    assert data["report_url"] in data["report_truncated"]
    assert _compact_size(data["report"]) <= limit
    assert data["report"]["verdict"] == "passed"
    if left_out != "trees":
        public = data["report"]["cases"][0]
        # Still a report's document: the nodes left out are counted by verdict.
        assert "nodes" not in public
        assert sum(public["nodes_omitted"].values()) == len(whole["cases"][0]["nodes"])
        assert "replay" not in public
        assert len(data["report"]["cases"]) == len(whole["cases"])
    else:
        assert data["report"]["cases"] == []


def test_during_a_secret_rotation_both_secrets_sign(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    old = receiver.secret
    integration_id = make_integration(database, course, new_secret())
    with database.session() as session:
        integration = session.get(Integration, integration_id)
        assert integration is not None
        integration.previous_secret = old
        integration.previous_secret_until = utcnow() + timedelta(hours=1)

    graded(database, settings, course, make_user, integration_id, receiver.url())
    (got,) = receiver.got
    assert got.verified  # with the old secret, which the receiver still holds
    assert len(got.headers["webhook-signature"].split(" ")) == 2


def self_signed(folder: Path, name: str) -> tuple[Path, Path]:
    """A certificate for ``name`` (its own CA) and its key, as PEM files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / f"{name}.crt", folder / f"{name}.key"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


@pytest.mark.parametrize("certified", ["secure.lms.test", "someone-else.test"])
def test_over_https_the_checked_address_is_used_and_the_host_name_verified(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    certified: str,
) -> None:
    cert_file, key_file = self_signed(tmp_path, certified)
    monkeypatch.setattr(callbacks, "VERIFY_TLS", str(cert_file))
    monkeypatch.setattr(urls, "resolve", lambda _host, _port: ["127.0.0.1"])
    receiver = Receiver(new_secret()).start(tls=(cert_file, key_file))
    try:
        integration_id = make_integration(database, course, receiver.secret, ["secure.lms.test"])
        url = f"https://secure.lms.test:{receiver.port}/hook"
        submission_id, _ = graded(database, settings, course, make_user, integration_id, url)
    finally:
        receiver.stop()

    (delivery,) = deliveries_of(database, submission_id)
    if certified == "secure.lms.test":
        assert delivery.state == DeliveryState.DELIVERED
        (got,) = receiver.got
        assert got.verified and got.headers["Host"] == f"secure.lms.test:{receiver.port}"
    else:  # connected to 127.0.0.1, yet the certificate must name the URL's host
        assert delivery.state == DeliveryState.PENDING and receiver.got == []
        assert "certificate" in (delivery.last_error or "").lower()
