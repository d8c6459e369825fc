"""Rate limits (Flask-Limiter): counted in Redis when ``GRADER_REDIS_URL`` is set, in a
SQLite file in the instance folder otherwise (the embedded mode, see
:mod:`grader.web.limit_storage`), so that every web process on the machine shares them.

Sign-ins have limits of their own (:mod:`grader.web.sign_in_throttle`), counted in the same
storage. Forms that mail a message to any address they are given (registration, reset) are
limited here, each POST counted twice: per recipient (``Settings.login_limits``), so that
nobody can flood one mailbox; and per client address (``request.remote_addr``: behind
``Settings.proxy_hops`` proxies, the address they forwarded) with the far higher
``Settings.login_address_limits``, so that a stranger behind a campus NAT who asks again
and again locks out the mailbox they name, not the classmates who share the address.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Flask, current_app, render_template, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

from grader.config import Settings
from grader.services.identities import normalise_email
from grader.web import limit_storage

F = TypeVar("F", bound=Callable[..., Any])

limiter = Limiter(key_func=get_remote_address, default_limits=[], headers_enabled=True)

LIMITS_FILE = "limits.db"
"""The embedded mode's counts, in the instance folder."""


def install(app: Flask, settings: Settings) -> None:
    shared = settings.redis_url or limit_storage.uri(settings.instance_dir / LIMITS_FILE)
    app.config.setdefault("RATELIMIT_STORAGE_URI", shared)
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "grader-limits")
    limiter.init_app(app)


def _settings() -> Settings:
    settings: Settings = current_app.extensions["grader.settings"]
    return settings


def address_key() -> str:
    return "address:" + (get_remote_address() or "unknown")


def recipient_key() -> str:
    """The address a form asks to mail, as accounts are matched (case and blanks aside)."""
    return "recipient:" + normalise_email(str(request.form.get("email") or ""))


def mail_limited(view: F) -> F:
    """Limit the POSTs of ``view``, a form that sends a message to any address it is given:
    every POST counts per recipient, with the sign-in limits, and per client address, with
    the per-address volume limit."""
    per_recipient = limiter.limit(
        lambda: _settings().login_limits, key_func=recipient_key, methods=["POST"]
    )
    per_address = limiter.limit(
        lambda: _settings().login_address_limits, key_func=address_key, methods=["POST"]
    )
    return cast(F, per_address(per_recipient(view)))


def too_many_messages(error: RateLimitExceeded) -> tuple[str, int, dict[str, str]]:
    """The page a throttled :func:`mail_limited` form gets: 429, ``Retry-After``, and when
    to try again."""
    resets = [limit.reset_at for limit in limiter.current_limits if limit.breached]
    seconds = max(1, math.ceil(max(resets, default=time.time() + 60) - time.time()))
    minutes = max(1, round(seconds / 60))
    page = render_template("auth/throttled.html", minutes=minutes, reason="messages")
    return page, 429, {"Retry-After": str(seconds)}
