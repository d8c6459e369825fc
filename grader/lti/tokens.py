"""Access tokens for a platform's services, got with a client-credentials JWT assertion
signed by the tool's key, and kept until shortly before they expire."""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass

import jwt
import requests

from grader.lms.callbacks import TIMEOUTS
from grader.lti.keys import ALGORITHM
from grader.models import LtiPlatform

ASSERTION_SECONDS = 300
MARGIN_SECONDS = 60
"""A token is not used in its last minute: it could expire on the way."""
DEFAULT_LIFETIME = 3600
ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"


class TokenRefused(Exception):
    """The token endpoint did not give a token; ``status_code`` None: no answer at all."""

    def __init__(self, message: str, status_code: int | None = None, retry_after: str = ""):
        super().__init__(message)
        self.status_code = status_code
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class _Token:
    value: str
    expires: float
    """``time.monotonic()`` after which the token is not used."""


_cache: dict[tuple[str, str, str, str], _Token] = {}
_lock = threading.Lock()


def _key(platform: LtiPlatform, scope: str) -> tuple[str, str, str, str]:
    return (platform.auth_token_url, platform.client_id, platform.tool_key_id, scope)


def assertion(platform: LtiPlatform, now: float | None = None) -> str:
    """The JWT by which the tool proves to the platform that it holds the key."""
    issued = int(now if now is not None else time.time())
    claims = {
        "iss": platform.client_id,
        "sub": platform.client_id,
        "aud": platform.auth_token_url,
        "iat": issued,
        "exp": issued + ASSERTION_SECONDS,
        "jti": uuid.uuid4().hex,
    }
    return jwt.encode(
        claims,
        platform.tool_private_key,
        algorithm=ALGORITHM,
        headers={"kid": platform.tool_key_id},
    )


def access_token(platform: LtiPlatform, scope: str) -> str:
    """A token for ``scope`` at ``platform`` (a cached one while it lasts)."""
    key = _key(platform, scope)
    with _lock:
        cached = _cache.get(key)
    if cached is not None and cached.expires > time.monotonic():
        return cached.value
    form = {
        "grant_type": "client_credentials",
        "client_assertion_type": ASSERTION_TYPE,
        "client_assertion": assertion(platform),
        "scope": scope,
    }
    try:
        response = requests.post(
            platform.auth_token_url,
            data=form,
            headers={"Accept": "application/json"},
            timeout=TIMEOUTS,
            allow_redirects=False,
        )
    except requests.RequestException as error:
        raise TokenRefused(f"the token endpoint could not be reached: {error}") from None
    if not 200 <= response.status_code < 300:
        raise TokenRefused(
            f"the token endpoint answered HTTP {response.status_code}: {response.text[:300]}",
            response.status_code,
            response.headers.get("Retry-After", ""),
        )
    try:
        body = response.json()
        value = str(body["access_token"])
        lifetime = int(body.get("expires_in") or DEFAULT_LIFETIME)
    except (ValueError, KeyError, TypeError):
        raise TokenRefused("the token endpoint's answer holds no access_token") from None
    token = _Token(value, time.monotonic() + max(0, lifetime - MARGIN_SECONDS))
    with _lock:
        _cache[key] = token
    return value


def forget(platform: LtiPlatform, scope: str) -> None:
    """Drop the cached token (the platform refused it)."""
    with _lock:
        _cache.pop(_key(platform, scope), None)
