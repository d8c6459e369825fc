"""Rate limits (Flask-Limiter): counted in Redis when ``GRADER_REDIS_URL`` is set, in a
SQLite file in the instance folder otherwise (the embedded mode, see
:mod:`grader.web.limit_storage`), so that every web process on the machine shares them.

Sign-ins are throttled per account and per address, counting failures only: a view calls
:func:`failed_sign_in` when a password was wrong, and once ``Settings.login_limits`` are
used up every sign-in with that account or from that address is refused with 429, the
right password too, until the window moves on. A person who signs in and out normally is
never counted.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Flask, current_app, g, render_template, request, session
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from werkzeug.wrappers import Response

from grader.config import Settings
from grader.services.identities import normalise_email
from grader.web import limit_storage

F = TypeVar("F", bound=Callable[..., Any])

limiter = Limiter(key_func=get_remote_address, default_limits=[], headers_enabled=True)

LIMITS_FILE = "limits.db"
"""The embedded mode's counts, in the instance folder."""
SIGN_IN_ACCOUNT = "sign-in-account"
SIGN_IN_ADDRESS = "sign-in-address"
MAIL_ENDPOINTS = ("auth.register", "auth.forgot")
ACCOUNT_SESSION_KEY = "grader.sign_in_account"
"""Where a page that asks for a known account's password (the LTI link page) keeps its
email, so that its failures count against that account too."""


def install(app: Flask, settings: Settings) -> None:
    shared = settings.redis_url or limit_storage.uri(settings.instance_dir / LIMITS_FILE)
    app.config.setdefault("RATELIMIT_STORAGE_URI", shared)
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "grader-limits")
    limiter.init_app(app)


def failed_sign_in() -> None:
    """Count this request against the sign-in limits (a wrong password)."""
    g.grader_failed_sign_in = True


def _failed(_response: Response) -> bool:
    return bool(g.get("grader_failed_sign_in"))


def _login_limits() -> str:
    settings: Settings = current_app.extensions["grader.settings"]
    return settings.login_limits


def _account() -> str:
    email = request.form.get("email") or session.get(ACCOUNT_SESSION_KEY) or ""
    return "account:" + normalise_email(str(email))


def address_key() -> str:
    return "address:" + (get_remote_address() or "unknown")


def sign_in_limited(view: F) -> F:
    """Refuse the POSTs of ``view`` with 429 while its account or address has failed too
    often (the limits are shared by every view that takes a password)."""
    common: dict[str, Any] = {"methods": ["POST"], "deduct_when": _failed}
    per_account = limiter.shared_limit(_login_limits, SIGN_IN_ACCOUNT, key_func=_account, **common)
    per_address = limiter.shared_limit(
        _login_limits, SIGN_IN_ADDRESS, key_func=address_key, **common
    )
    return cast(F, per_address(per_account(view)))


def mail_limited(view: F) -> F:
    """Limit the POSTs of ``view``, a form that sends a message to any address it is given
    (every POST counts, per address, with the sign-in limits)."""
    limited = limiter.limit(_login_limits, key_func=address_key, methods=["POST"])(view)
    return cast(F, limited)


def too_many_sign_ins(error: RateLimitExceeded) -> tuple[str, int, dict[str, str]]:
    """The page a throttled sign-in gets: 429, ``Retry-After``, and when to try again."""
    resets = [limit.reset_at for limit in limiter.current_limits if limit.breached]
    seconds = max(1, math.ceil(max(resets, default=time.time() + 60) - time.time()))
    minutes = max(1, round(seconds / 60))
    signing_in = request.endpoint not in MAIL_ENDPOINTS
    page = render_template("auth/throttled.html", minutes=minutes, signing_in=signing_in)
    return page, 429, {"Retry-After": str(seconds)}
