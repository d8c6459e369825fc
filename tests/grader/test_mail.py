"""Mail senders: the log by default, SMTP when ``mail_url`` names a server (checked
against a small SMTP server on loopback), an outbox for tests; a failure is logged."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from email import message_from_bytes
from pathlib import Path

import pytest

from grader.config import Settings
from grader.services.mail import LogSender, Message, Outbox, SmtpSender, send, sender_for
from grader.web import create_app
from tests.smtp import Recorder, serving

MESSAGE = Message(to="ada@example.edu", subject="Reset your password", body="Open /reset/abc")


@pytest.fixture
def smtp_server() -> Iterator[Recorder]:
    with serving() as server:
        yield server


def test_without_a_mail_url_messages_go_to_the_log(caplog: pytest.LogCaptureFixture) -> None:
    sender = sender_for(Settings())
    assert isinstance(sender, LogSender)
    with caplog.at_level(logging.INFO, logger="grader.services.mail"):
        sender.send(MESSAGE)
    assert "ada@example.edu" in caplog.text and "Open /reset/abc" in caplog.text


def test_an_smtp_url_sends_through_that_server(smtp_server: Recorder) -> None:
    port = smtp_server.server_address[1]
    settings = Settings(mail_url=f"smtp://127.0.0.1:{port}", mail_from="grader@uni.example")
    sender = sender_for(settings)
    assert sender == SmtpSender("127.0.0.1", port, "grader@uni.example")

    assert send(sender, MESSAGE) is True

    (envelope,) = smtp_server.received
    assert "grader@uni.example" in str(envelope["from"])
    assert "ada@example.edu" in str(envelope["rcpt"])
    mail = message_from_bytes(envelope["data"])  # type: ignore[arg-type]
    assert mail["Subject"] == "Reset your password"
    assert "Open /reset/abc" in mail.get_payload()


def test_a_server_that_cannot_be_reached_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = Recorder()  # bound, then closed: nothing listens on its port
    port = server.server_address[1]
    server.server_close()

    assert send(SmtpSender("127.0.0.1", port, "grader@localhost"), MESSAGE) is False
    assert "could not send mail to ada@example.edu" in caplog.text


def test_a_mail_url_that_is_not_smtp_is_refused() -> None:
    with pytest.raises(ValueError, match="smtp://host:port"):
        sender_for(Settings(mail_url="https://mail.example"))


def test_an_outbox_keeps_what_was_sent() -> None:
    outbox = Outbox()
    send(outbox, MESSAGE)
    assert outbox.to("ada@example.edu") == [MESSAGE]


def test_the_app_refuses_to_start_with_a_mail_url_it_cannot_use(tmp_path: Path) -> None:
    settings = Settings(env="development", instance_dir=tmp_path, mail_url="mail.example:25")
    with pytest.raises(ValueError, match="GRADER_MAIL_URL"):
        create_app(settings)
