"""The template filters every page may use, registered on the app by its factory."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Flask
from markupsafe import Markup

from grader.models.base import aware
from reference.verdict_words import verdict_word


def register(app: Flask) -> None:
    app.add_template_filter(verdict_word, "verdict_word")
    app.add_template_filter(moment, "moment")


def moment(value: datetime | None) -> Markup:
    """A time as every page shows it: in UTC from the server, in the viewer's time zone
    once ``localtime.js`` has run (the UTC text stays as the title)."""
    if value is None:
        return Markup("")
    value = aware(value).astimezone(UTC)
    iso = value.isoformat(timespec="seconds").replace("+00:00", "Z")
    return Markup(f'<time datetime="{iso}" data-local>{value:%Y-%m-%d %H:%M:%S} UTC</time>')
