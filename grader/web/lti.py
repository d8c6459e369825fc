"""(to be built)"""

from __future__ import annotations

from flask import Blueprint

blueprint = Blueprint("lti", __name__)
