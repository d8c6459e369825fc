"""Health, readiness and metrics endpoints for the operators."""

from __future__ import annotations

from flask import Blueprint

blueprint = Blueprint("ops", __name__)


@blueprint.route("/healthz")
def healthz() -> tuple[dict[str, str], int]:
    return {"status": "ok"}, 200
