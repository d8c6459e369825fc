"""Where a login's nonce waits for its launch: a signed cookie in the browser that logged in.

The launch is a cross-site POST from the platform, so the site's session cookie (SameSite
Lax) does not come with it; PyLTI1p3's own state cookie does (SameSite None over HTTPS), and
the nonce travels the same way. Its value is signed with the app's secret key and dated, so
that it cannot be made up. Once a launch has used a nonce, a row in ``lti_nonces`` says so
until it would have expired anyway: the table's primary key refuses the second launch with
the same id_token in every web process, even one that comes with a copy of the cookies.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from itsdangerous import BadSignature, TimestampSigner
from pylti1p3.cookie import CookieService
from pylti1p3.request import Request
from pylti1p3.session import SessionService
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from grader.models import utcnow
from grader.models.accounts import LtiNonce

NONCE_SECONDS = 10 * 60
"""How long a login may take before its launch comes back."""
NONCE_LENGTH = 200
COOKIE_PREFIX = "lti1p3-"
_SALT = "grader.lti.nonce"


def _nonce_cookie(nonce: str) -> str:
    return "nonce-" + nonce


class LaunchState(SessionService):
    """PyLTI1p3's session service, keeping only nonces, in signed cookies."""

    def __init__(
        self, request: Request, cookies: CookieService, secret_key: str, session: Session
    ) -> None:
        super().__init__(request)
        self._cookies = cookies
        self._signer = TimestampSigner(secret_key, salt=_SALT)
        self._session = session

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
        return signed == nonce and not used(self._session, nonce)

    # A launch is handled within its request: nothing of it is kept for later requests.
    def save_launch_data(self, key: str, jwt_body: Any) -> None:
        pass

    def set_state_valid(self, state: str, id_token_hash: str) -> None:
        pass

    def check_state_is_valid(self, state: str, id_token_hash: str) -> bool:
        return False


def used(session: Session, nonce: str) -> bool:
    """Whether a launch used ``nonce`` already (in any process)."""
    return session.scalar(select(LtiNonce.nonce).where(LtiNonce.nonce == nonce)) is not None


def spend(session: Session, nonce: str) -> bool:
    """Mark ``nonce`` used by a launch (committed, until it would have expired anyway);
    False when a launch used it already, in this process or another, before or at the same
    time. Expired rows are removed on the way."""
    if not nonce or len(nonce) > NONCE_LENGTH:
        return False
    now = utcnow()
    session.execute(delete(LtiNonce).where(LtiNonce.expires_at < now))
    session.add(LtiNonce(nonce=nonce, expires_at=now + timedelta(seconds=NONCE_SECONDS)))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        return False
    return True


def forget_cookies(response: Response, nonce: str, state: str | None) -> None:
    """Remove the login's cookies from the browser once its launch is done."""
    response.delete_cookie(COOKIE_PREFIX + _nonce_cookie(nonce), path="/")
    if state:
        response.delete_cookie(COOKIE_PREFIX + state, path="/")
