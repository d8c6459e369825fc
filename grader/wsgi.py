"""The WSGI entry point: ``gunicorn grader.wsgi:app``.

Logs go to stderr as JSON lines; the settings come from the ``GRADER_*`` environment.
"""

from __future__ import annotations

from grader.logs import configure_logging
from grader.web import create_app, ops

configure_logging("INFO")
app = create_app()
# Idempotent: harmless once create_app registers the hooks itself.
ops.register(app)
