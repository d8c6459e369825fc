"""The instructors' pages."""

from __future__ import annotations

from flask import Blueprint

blueprint = Blueprint("instructor", __name__)


@blueprint.route("/teach/")
def home() -> str:
    return "teaching (to be built)"
