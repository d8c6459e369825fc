"""What every response and every URL is held to: security headers, trusted hosts, bounded
ids, who may read the operators' endpoints."""

from __future__ import annotations

from flask import Flask

from grader.config import Settings


def install(app: Flask, settings: Settings) -> None:
    """Install the checks and headers (before any blueprint is registered)."""
