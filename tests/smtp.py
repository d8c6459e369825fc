"""A small SMTP server on loopback that keeps the messages it is given, for tests of what
the service mails (in this process, or from a gunicorn started by the test)."""

from __future__ import annotations

import socketserver
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes

from tests.servers import running


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

    def bodies(self) -> list[str]:
        """The text of each message received, in order (decoded: long lines of a message
        travel quoted-printable)."""
        texts = []
        for envelope in self.received:
            mail = message_from_bytes(envelope["data"])  # type: ignore[arg-type]
            texts.append(mail.get_payload(decode=True).decode())  # type: ignore[union-attr]
        return texts


@contextmanager
def serving() -> Iterator[Recorder]:
    """A :class:`Recorder` answering on a free loopback port while the block runs."""
    with running(Recorder()) as server:
        yield server
