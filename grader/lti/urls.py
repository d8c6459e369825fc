"""Which platform URLs the tool will talk to: HTTPS, or plain HTTP on this machine only.

Keys, id_tokens' key sets and access tokens travel over these URLs; over plain HTTP anyone
on the way could swap a key or read a token, so only loopback (development, tests) may use it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


def url_problem(url: str) -> str | None:
    """Why ``url`` cannot be used for a platform's endpoint, or None when it can."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname or ""
    except ValueError:
        return "is not a valid URL"
    if parts.scheme not in ("http", "https") or not host:
        return "must be an http(s) URL with a host"
    if parts.username or parts.password:
        return "must not carry a user name or password"
    if parts.scheme == "http" and host not in LOOPBACK_HOSTS:
        return "must use HTTPS (plain HTTP is allowed for localhost only)"
    return None
