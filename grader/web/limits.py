"""Rate limits (Flask-Limiter): counted in Redis when ``GRADER_REDIS_URL`` is set, so that
every web process shares them; in this process's memory otherwise (the embedded mode)."""

from __future__ import annotations

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from grader.config import Settings

limiter = Limiter(key_func=get_remote_address, default_limits=[], headers_enabled=True)


def install(app: Flask, settings: Settings) -> None:
    app.config.setdefault("RATELIMIT_STORAGE_URI", settings.redis_url or "memory://")
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "grader-limits")
    limiter.init_app(app)
