"""What every response and every URL is held to: security headers, trusted hosts, bounded
ids, who may read the operators' endpoints."""

from __future__ import annotations

import hmac
import json
import logging
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, request
from werkzeug.routing import IntegerConverter, Map, ValidationError

from grader.config import Settings
from grader.web.limits import limiter

log = logging.getLogger(__name__)

REPORT_PATH = "/csp-report"
REPORT_LIMIT_BYTES = 16 * 1024
"""A violation report is a few hundred bytes; longer bodies are refused unread."""
REPORT_RATE = "60 per minute"
"""Reports taken per address: a page with a violation reports it on every load."""

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
        # report-uri rather than report-to: Chromium sends report-uri at once, while the
        # Reporting API batches reports for up to a minute and drops report-uri when both
        # are given.
        f"report-uri {REPORT_PATH}",
    ]
)
"""No inline script or style anywhere: every page's script and style is a static file,
and the data a script reads is a ``<script type="application/json">`` block (not run).
Framing is refused: sign-in cookies are SameSite=Lax, so a framed page could not be
signed in anyway, and no LTI launch asks for an iframe."""

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
HSTS = "max-age=31536000"
"""Sent only when ``public_url`` is https: a year, this host only (no includeSubDomains:
the grader does not own its parent domain's other hosts)."""

LOOPBACK = ("localhost", "127.0.0.1")

LARGEST_ID = 2**31 - 1
"""The largest id a URL may carry: ids are SQLAlchemy ``Integer`` columns, 32-bit on
PostgreSQL (SQLite refuses anything past 2**63 with an OverflowError)."""


class BoundedInt(IntegerConverter):
    """Werkzeug's ``int`` converter held to :data:`LARGEST_ID`: a larger number in a URL
    matches no route (404) instead of reaching the database."""

    def __init__(
        self,
        map: Map,
        fixed_digits: int = 0,
        min: int | None = None,
        max: int | None = None,
        signed: bool = False,
    ) -> None:
        super().__init__(map, fixed_digits, min, LARGEST_ID if max is None else max, signed)

    def to_python(self, value: str) -> Any:
        # Checked before int(): Python refuses to parse over 4300 digits with a ValueError.
        if len(value.lstrip("-0")) > len(str(LARGEST_ID)):
            raise ValidationError()
        return super().to_python(value)


def install(app: Flask, settings: Settings) -> None:
    """Install the checks and headers (before any blueprint is registered)."""
    app.url_map.converters["int"] = BoundedInt
    hosts = trusted_hosts(settings)
    if hosts:
        app.config["TRUSTED_HOSTS"] = hosts
    headers = dict(HEADERS)
    if settings.public_url.startswith("https://"):
        headers["Strict-Transport-Security"] = HSTS

    @app.after_request
    def add_headers(response: Response) -> Response:
        for name, value in headers.items():
            response.headers.setdefault(name, value)
        return response

    @app.before_request
    def guard_metrics() -> None:
        if request.endpoint == "ops.metrics_text" and not may_read_metrics(settings):
            abort(403)

    view = limiter.limit(REPORT_RATE)(csp_report)
    app.add_url_rule(REPORT_PATH, "csp_report", view, methods=["POST"])
    # Browsers send reports without a form, so without a CSRF token.
    app.extensions["csrf"].exempt(view)


def trusted_hosts(settings: Settings) -> list[str]:
    """The host names the app answers to; empty: any, which only development without a
    public URL or trusted hosts allows (elsewhere the web app needs a public URL, see
    ``Settings.checked``, so its host is always here). Once any is configured, the
    loopback names are added: the container's health check and a local metrics scraper
    ask for ``127.0.0.1:8000``, and a link built from a loopback Host can only lead a user
    to their own machine. (Werkzeug cannot match an IPv6 literal.)"""
    hosts = list(settings.trusted_hosts)
    public = urlsplit(settings.public_url).hostname if settings.public_url else None
    if public:
        hosts.append(public)
    if hosts:
        hosts += LOOPBACK
    return list(dict.fromkeys(hosts))


def may_read_metrics(settings: Settings) -> bool:
    """Whether this request may read ``/metrics``: from an allowed address, or with the
    metrics token. The address is ``remote_addr``: the connection's own, unless
    ``proxy_hops`` names proxies in front, whose X-Forwarded-For then gives the client's (so
    the allow-list holds clients, not the proxy). X-Forwarded-For from anyone else is never
    read, so a client cannot claim to be loopback."""
    if request.remote_addr in settings.metrics_allow:
        return True
    if not settings.metrics_token:
        return False
    given = request.headers.get("Authorization", "")
    expected = f"Bearer {settings.metrics_token}"
    return hmac.compare_digest(given.encode(), expected.encode())


def csp_report() -> tuple[str, int]:
    """Log a browser's Content-Security-Policy violation report (``report-uri``)."""
    if (request.content_length or 0) > REPORT_LIMIT_BYTES:
        abort(413)
    body = request.stream.read(REPORT_LIMIT_BYTES + 1)
    if len(body) > REPORT_LIMIT_BYTES:
        abort(413)
    try:
        document = json.loads(body)
    except ValueError:
        abort(400, "a violation report is a JSON document")
    for report in _reports(document):
        log.warning(
            "csp violation: %s blocked %s on %s (%s line %s)",
            _field(report, "effective-directive", "effectiveDirective", "violated-directive"),
            _field(report, "blocked-uri", "blockedURL"),
            _field(report, "document-uri", "documentURL"),
            _field(report, "source-file", "sourceFile"),
            _field(report, "line-number", "lineNumber"),
            extra={"csp_report": report},
        )
    return "", 204


def _reports(document: Any) -> list[dict[str, Any]]:
    """The violations in a report-uri document (``{"csp-report": {...}}``) or a Reporting
    API batch (``[{"type": "csp-violation", "body": {...}}]``)."""
    if isinstance(document, dict) and isinstance(document.get("csp-report"), dict):
        return [document["csp-report"]]
    if isinstance(document, list):
        return [
            item["body"]
            for item in document[:20]
            if isinstance(item, dict) and isinstance(item.get("body"), dict)
        ]
    return []


def _field(report: dict[str, Any], *names: str) -> str:
    for name in names:
        if name in report:
            return str(report[name])[:300]
    return "-"
