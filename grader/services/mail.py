"""Messages to people (password resets, address confirmations): who sends them is
pluggable. The log sender (the default, and development's) writes the whole message, link
included, to the log; the SMTP sender hands it to ``Settings.mail_url``; tests use an
:class:`Outbox` that keeps what was sent."""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Protocol
from urllib.parse import urlsplit

from grader.config import Settings

log = logging.getLogger(__name__)

SMTP_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class Message:
    to: str
    subject: str
    body: str


class MailSender(Protocol):
    def send(self, message: Message) -> None:
        """Send ``message``; raises OSError or smtplib.SMTPException when it cannot."""


class LogSender:
    """Writes messages to the log (no mail leaves the machine)."""

    def send(self, message: Message) -> None:
        log.info("mail to %s: %s\n%s", message.to, message.subject, message.body)


@dataclass(frozen=True, slots=True)
class SmtpSender:
    """Hands messages to an SMTP server (plain, as a local relay takes them)."""

    host: str
    port: int
    sender: str

    def send(self, message: Message) -> None:
        mail = EmailMessage()
        mail["From"] = self.sender
        mail["To"] = message.to
        mail["Subject"] = message.subject
        mail.set_content(message.body)
        with smtplib.SMTP(self.host, self.port, timeout=SMTP_TIMEOUT_SECONDS) as smtp:
            smtp.send_message(mail)


@dataclass
class Outbox:
    """Keeps the messages instead of sending them (tests)."""

    messages: list[Message] = field(default_factory=list)

    def send(self, message: Message) -> None:
        self.messages.append(message)

    def to(self, address: str) -> list[Message]:
        return [message for message in self.messages if message.to == address]


def sender_for(settings: Settings) -> MailSender:
    """The sender ``settings.mail_url`` names: ``smtp://host:port``, or the log when empty."""
    if not settings.mail_url:
        return LogSender()
    url = urlsplit(settings.mail_url)
    if url.scheme != "smtp" or not url.hostname:
        raise ValueError(f"GRADER_MAIL_URL must be smtp://host:port, not {settings.mail_url!r}")
    return SmtpSender(url.hostname, url.port or 25, settings.mail_from)


def send(sender: MailSender, message: Message) -> bool:
    """Send ``message``, logging (not raising) a failure: the person's page must not
    depend on it, nor tell whether a message was due. True when it went."""
    try:
        sender.send(message)
    except (OSError, smtplib.SMTPException):
        log.exception("could not send mail to %s (%s)", message.to, message.subject)
        return False
    return True
