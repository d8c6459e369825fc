"""The students' pages."""

from __future__ import annotations

from flask import Blueprint

blueprint = Blueprint("student", __name__)


@blueprint.route("/")
def home() -> str:
    return "exercises (to be built)"
