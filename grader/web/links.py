"""Absolute links to the service, for what leaves it: mail (password resets, registrations),
the API's status URLs and problem types, the URLs an LMS admin copies into the platform.

They start with ``Settings.public_url``, never with a ``Host`` header the client chose: a
reset link built from the request's host would send its token wherever an attacker's
request said. Only in development without a public URL do they follow the request's
host, which Flask has held to the trusted hosts (see :mod:`grader.web.security`) when any
are set.
"""

from __future__ import annotations

from typing import Any

from flask import request, url_for

from grader.web.context import settings


def root() -> str:
    """The service's address, without a trailing slash."""
    return (settings().public_url or request.host_url).rstrip("/")


def external_url(endpoint: str, **values: Any) -> str:
    """The absolute URL of ``endpoint`` (with ``values``), on :func:`root`."""
    return root() + url_for(endpoint, **values)
