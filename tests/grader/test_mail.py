"""Mail senders: the log by default, SMTP when ``mail_url`` names a server (checked
against a small SMTP server on loopback), an outbox for tests; a failure is logged."""

from __future__ import annotations

import logging
import socketserver
import threading
from collections.abc import Iterator
from email import message_from_bytes
from pathlib import Path

import pytest

from grader.config import Settings
from grader.services.mail import LogSender, Message, Outbox, SmtpSender, send, sender_for
from grader.web import create_app

MESSAGE = Message(to="ada@example.edu", subject="Reset your password", body="Open /reset/abc")


class SmtpHandler(socketserver.StreamRequestHandler):
    """Just enough SMTP to take one message (RFC 5321's happy path)."""

    def handle(self) -> None:
        server: Recorder = self.server  # type: ignore[assignment]
        self.wfile.write(b"220 test ESMTP\r\n")
        envelope: dict[str, object] = {"rcpt": []}
        while line := self.rfile.readline():
            verb = line[:4].upper()
            if verb in (b"EHLO", b"HELO"):
                self.wfile.write(b"250 test\r\n")
            elif verb == b"MAIL":
                envelope["from"] = line.decode().strip()
                self.wfile.write(b"250 OK\r\n")
            elif verb == b"RCPT":
                envelope["rcpt"].append(line.decode().strip())  # type: ignore[attr-defined]
                self.wfile.write(b"250 OK\r\n")
            elif verb == b"DATA":
                self.wfile.write(b"354 go on\r\n")
                data = b"".join(iter(lambda: self.rfile.readline(), b".\r\n"))
                envelope["data"] = data
                server.received.append(envelope)
                self.wfile.write(b"250 OK\r\n")
            elif verb == b"QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:
                self.wfile.write(b"250 OK\r\n")


class Recorder(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), SmtpHandler)
        self.received: list[dict[str, object]] = []


@pytest.fixture
def smtp_server() -> Iterator[Recorder]:
    server = Recorder()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


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
