"""Rate limits (Flask-Limiter): counted in Redis when ``GRADER_REDIS_URL`` is set, in a
SQLite file in the instance folder otherwise (the embedded mode, see
:mod:`grader.web.limit_storage`), so that every web process on the machine shares them.

Sign-ins have limits of their own (:mod:`grader.web.sign_in_throttle`), counted in the same
storage. Forms that mail a message to any address they are given are limited here, per
client address (``request.remote_addr``: behind ``Settings.proxy_hops`` proxies, the
address they forwarded).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Flask, current_app, render_template
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

from grader.config import Settings
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


def _login_limits() -> str:
    settings: Settings = current_app.extensions["grader.settings"]
    return settings.login_limits


def address_key() -> str:
    return "address:" + (get_remote_address() or "unknown")


def mail_limited(view: F) -> F:
    """Limit the POSTs of ``view``, a form that sends a message to any address it is given
    (every POST counts, per client address, with the sign-in limits)."""
    limited = limiter.limit(_login_limits, key_func=address_key, methods=["POST"])(view)
    return cast(F, limited)


def too_many_messages(error: RateLimitExceeded) -> tuple[str, int, dict[str, str]]:
    """The page a throttled :func:`mail_limited` form gets: 429, ``Retry-After``, and when
    to try again."""
    resets = [limit.reset_at for limit in limiter.current_limits if limit.breached]
    seconds = max(1, math.ceil(max(resets, default=time.time() + 60) - time.time()))
    minutes = max(1, round(seconds / 60))
    page = render_template("auth/throttled.html", minutes=minutes, reason="messages")
    return page, 429, {"Retry-After": str(seconds)}
