"""(to be built)"""

from __future__ import annotations

from flask import Blueprint

blueprint = Blueprint("api", __name__)
