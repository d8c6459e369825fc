"""The template filters every page may use, registered on the app by its factory."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Flask
from markupsafe import Markup

from grader.models.base import aware
from grader.services.grades import AttemptScore
from grader.web.deadlines import time_html
from reference.verdict_words import verdict_word


def register(app: Flask) -> None:
    app.add_template_filter(verdict_word, "verdict_word")
    app.add_template_filter(moment, "moment")
    app.add_template_filter(late_score, "late_score")
    app.add_template_global(local_time, "local_time")


def moment(value: datetime | None) -> Markup:
    """A time as every page shows it: in UTC from the server, in the viewer's time zone
    once ``localtime.js`` has run (the UTC text stays as the title)."""
    if value is None:
        return Markup("")
    value = aware(value).astimezone(UTC)
    iso = value.isoformat(timespec="seconds").replace("+00:00", "Z")
    return Markup(f'<time datetime="{iso}" data-local>{value:%Y-%m-%d %H:%M:%S} UTC</time>')


def late_score(attempt: AttemptScore | None) -> Markup:
    """A late attempt's raw score and its score after the policy, with why:
    "7 → 6.3 after 1 day late, -10 %"; "late, 1 day after the due date" when the policy
    takes nothing."""
    if attempt is None or not attempt.lateness.late:
        return Markup("")
    lateness = attempt.lateness
    days = f"{lateness.days} day{'' if lateness.days == 1 else 's'} late"
    if lateness.penalty <= 0 or attempt.raw_score is None or attempt.score is None:
        after = f"{lateness.days} day{'' if lateness.days == 1 else 's'} after the due date"
        return Markup(
            f'<span class="late-note"><span class="badge late">late</span> {after}</span>'
        )
    return Markup(
        f'<span class="late-note"><span class="badge late">late</span> '
        f"{attempt.raw_score:g} → {attempt.score:g} after {days}, "
        f"&minus;{lateness.penalty:g} %</span>"
    )


def local_time(moment: datetime | None, relative: bool = False) -> Markup:
    return Markup("") if moment is None else time_html(moment, relative)
