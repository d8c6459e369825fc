"""Where a login's nonce waits for its launch: a signed cookie in the browser that logged in.

The launch is a cross-site POST from the platform, so the site's session cookie (SameSite
Lax) does not come with it; PyLTI1p3's own state cookie does (SameSite None over HTTPS), and
the nonce travels the same way. Its value is signed with the app's secret key and dated, so
that it cannot be made up; once a launch has used a nonce it is remembered here until it
would have expired anyway, so that the same id_token cannot be launched twice through this
process even with a copy of the cookies.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from itsdangerous import BadSignature, TimestampSigner
from pylti1p3.cookie import CookieService
from pylti1p3.request import Request
from pylti1p3.session import SessionService
from werkzeug.wrappers import Response

NONCE_SECONDS = 10 * 60
"""How long a login may take before its launch comes back."""
COOKIE_PREFIX = "lti1p3-"
_SALT = "grader.lti.nonce"

_used: dict[str, float] = {}
_used_lock = threading.Lock()


def _nonce_cookie(nonce: str) -> str:
    return "nonce-" + nonce


class LaunchState(SessionService):
    """PyLTI1p3's session service, keeping only nonces, in signed cookies."""

    def __init__(self, request: Request, cookies: CookieService, secret_key: str) -> None:
        super().__init__(request)
        self._cookies = cookies
        self._signer = TimestampSigner(secret_key, salt=_SALT)

    def save_nonce(self, nonce: str) -> None:
        signed = self._signer.sign(nonce).decode()
        self._cookies.set_cookie(_nonce_cookie(nonce), signed, NONCE_SECONDS)

    def check_nonce(self, nonce: str) -> bool:
        value = self._cookies.get_cookie(_nonce_cookie(nonce))
        if not value:
            return False
        try:
            signed = self._signer.unsign(value, max_age=NONCE_SECONDS).decode()
        except BadSignature:
            return False
        return signed == nonce and not used(nonce)

    # A launch is handled within its request: nothing of it is kept for later requests.
    def save_launch_data(self, key: str, jwt_body: Any) -> None:
        pass

    def set_state_valid(self, state: str, id_token_hash: str) -> None:
        pass

    def check_state_is_valid(self, state: str, id_token_hash: str) -> bool:
        return False


def used(nonce: str) -> bool:
    with _used_lock:
        return nonce in _used


def spend(nonce: str) -> bool:
    """Mark ``nonce`` used by a launch (until it would have expired anyway); False when a
    launch used it already, here or in a request running at the same time."""
    now = time.monotonic()
    with _used_lock:
        for old in [key for key, until in _used.items() if until < now]:
            del _used[old]
        if nonce in _used:
            return False
        _used[nonce] = now + NONCE_SECONDS
        return True


def forget_cookies(response: Response, nonce: str, state: str | None) -> None:
    """Remove the login's cookies from the browser once its launch is done."""
    response.delete_cookie(COOKIE_PREFIX + _nonce_cookie(nonce), path="/")
    if state:
        response.delete_cookie(COOKIE_PREFIX + state, path="/")
