"""The class's misconceptions on an exercise: which known mistakes the students' searches
behave like now, and how that changed over time.

Every figure is a query over the runs' ``misconception`` columns (filled by
:func:`grader.services.results.store_report` from each report's diagnosis: its nearest
misconception's library name, ``family/stem`` for the shipped library and ``added/<stem>``
for one an instructor added, and whether it matched on every tree); no report is read back.
Only counted graded runs of attempts count: a regrade's preview is no student's result.

- Now: over each student's latest counted graded run
  (:func:`grader.services.class_results.latest_run_ids`), the students who show each
  misconception (exactly, or as the nearest), and how many passed or have no diagnosis.
- Over time: over every counted graded run, the students who ever showed each
  misconception, those who moved from it to a pass (a counted passed run after the last
  run that showed it: one who passed and then showed it again has not moved), those who
  still show it, and per ISO week (UTC) of the runs' finish times, the students who first
  showed it and those who moved from it to a pass.

A misconception's name for people is the shipped library's (the file's ``misconception``
header) or the added implementation's; a name neither knows falls back to its stem.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path

from sqlalchemy import ColumnElement, case, func, select
from sqlalchemy.orm import Session, aliased

from grader.models import AddedImplementation, Exercise, GradingRun, RunState, Submission, User
from grader.models.base import aware
from grader.models.submissions import SubmissionKind
from grader.services.class_results import latest_run_ids
from reference.diagnosis.suspects import ADDED
from reference.hidden import LIBRARY_FOLDER, load_library
from reference.hidden.library import MisconceptionText
from reference.problems import FileProblems
from reference.report import RunVerdict

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Description:
    """What a misconception is, for the instructor's pages."""

    implementation: str
    """Its library name: ``family/stem`` or ``added/<stem>``."""
    name: str
    """Its short name, as students read it (the stem when unknown)."""
    explanation: str = ""
    pseudocode: str = ""
    """The textbook's line it concerns."""
    hint: str = ""
    added: bool = False
    """An instructor added it to this exercise's library."""
    known: bool = False
    """False: neither the shipped library nor the exercise's added ones name it (any more)."""


@dataclass(frozen=True, slots=True)
class StudentNow:
    """A student whose latest counted run shows a misconception."""

    user_id: int
    name: str
    email: str
    submission_id: int
    """Their latest graded submission."""
    exact: bool
    """True: it matched their search on every tree; False: it is only the nearest."""


@dataclass(frozen=True, slots=True)
class StudentMoved:
    """A student who showed a misconception and passed after the last run that showed it."""

    user_id: int
    name: str
    email: str
    submission_id: int
    """The submission of their first passed run after it."""
    passed_at: datetime


@dataclass(frozen=True, slots=True)
class Week:
    """One ISO week (UTC) of a misconception's history."""

    week: str
    """``2026-W48``."""
    first_shown: int
    """Students whose first run showing it finished this week."""
    moved: int
    """Students whose first pass after it finished this week."""


@dataclass
class Trajectory:
    """A misconception over every counted run of the class."""

    implementation: str
    ever: int = 0
    """Students who showed it in a counted run."""
    still: int = 0
    """Of those, students whose latest run shows it."""
    moved: list[StudentMoved] = field(default_factory=list)
    """Students who moved from it to a pass, by name."""
    weeks: list[Week] = field(default_factory=list)
    """The weeks with a first showing or a move, in order."""


@dataclass(frozen=True, slots=True)
class Outcomes:
    """The students' latest counted runs that show no misconception."""

    passed: int
    undiagnosed: int
    """Runs that did not pass and carry no diagnosis (a compile or runtime error, a limit
    hit, or a search unlike any known mistake)."""


@dataclass(frozen=True, slots=True)
class MisconceptionRow:
    """One misconception of the class: what it is, who shows it now, its history."""

    description: Description
    now: list[StudentNow]
    trajectory: Trajectory

    @property
    def exact(self) -> int:
        """Students now whose search it matches on every tree."""
        return sum(1 for student in self.now if student.exact)

    @property
    def nearest(self) -> int:
        """Students now for whom it is only the nearest."""
        return len(self.now) - self.exact


@dataclass(frozen=True, slots=True)
class ClassMisconceptions:
    """The class results page's misconceptions: every one shown in a counted run, most shown
    now first."""

    rows: list[MisconceptionRow]
    outcomes: Outcomes


def _counted() -> list[ColumnElement[bool]]:
    """The conditions that pick an exercise's counted graded runs of attempts (with the
    exercise's own condition added by the caller)."""
    return [
        Submission.kind == SubmissionKind.ATTEMPT,
        GradingRun.state == RunState.GRADED,
        GradingRun.counted.is_(True),
    ]


def _contact_email() -> ColumnElement[str]:
    """:attr:`grader.models.User.contact_email` in SQL: the address an LMS gave for an
    account it made (whose own address is a placeholder), else the account's."""
    return case(
        (
            (User.lms_email.is_not(None))
            & (User.lms_email != "")
            & User.email.endswith(".invalid"),
            User.lms_email,
        ),
        else_=User.email,
    )


def students_now(
    session: Session, exercise: Exercise, implementation: str | None = None
) -> dict[str, list[StudentNow]]:
    """The students whose latest counted run shows a misconception (``implementation``
    only, when given), by its library name, each list by name: one statement."""
    query = (
        select(
            GradingRun.misconception,
            User.id,
            User.name,
            _contact_email(),
            Submission.id,
            GradingRun.misconception_exact,
        )
        .join(Submission, GradingRun.submission_id == Submission.id)
        .join(User, Submission.user_id == User.id)
        .where(GradingRun.id.in_(latest_run_ids(exercise)), GradingRun.misconception.is_not(None))
        .order_by(GradingRun.misconception, User.name, User.id)
    )
    if implementation is not None:
        query = query.where(GradingRun.misconception == implementation)
    found: dict[str, list[StudentNow]] = {}
    for name, user_id, user_name, email, submission_id, exact in session.execute(query):
        found.setdefault(name or "", []).append(
            StudentNow(user_id, user_name, email, submission_id, bool(exact))
        )
    return found


def latest_names(session: Session, exercise: Exercise) -> dict[int, str]:
    """Each student's latest counted run's misconception (its library name), by user id;
    students without one are left out: one statement."""
    rows = session.execute(
        select(Submission.user_id, GradingRun.misconception)
        .join(Submission, GradingRun.submission_id == Submission.id)
        .where(GradingRun.id.in_(latest_run_ids(exercise)), GradingRun.misconception.is_not(None))
    )
    return {user_id: name for user_id, name in rows if name is not None}


def outcomes(session: Session, exercise: Exercise) -> Outcomes:
    """How many students' latest counted runs passed, and how many did not pass and carry
    no diagnosis: one statement."""
    passed = GradingRun.verdict == RunVerdict.PASSED
    row = session.execute(
        select(
            func.sum(case((passed, 1), else_=0)),
            func.sum(case((~passed & GradingRun.misconception.is_(None), 1), else_=0)),
        ).where(GradingRun.id.in_(latest_run_ids(exercise)))
    ).one()
    return Outcomes(int(row[0] or 0), int(row[1] or 0))


def trajectories(
    session: Session, exercise: Exercise, implementation: str | None = None
) -> dict[str, Trajectory]:
    """Each misconception shown in a counted run (``implementation`` only, when given)
    over time, by its library name: one statement, a row per student and misconception."""
    where = [Submission.exercise_id == exercise.id, *_counted()]
    shown_where = [*where, GradingRun.misconception.is_not(None)]
    if implementation is not None:
        shown_where.append(GradingRun.misconception == implementation)
    shown = (
        select(
            Submission.user_id,
            GradingRun.misconception,
            func.min(GradingRun.id).label("first_run"),
            func.max(GradingRun.id).label("last_run"),
        )
        .join(Submission, GradingRun.submission_id == Submission.id)
        .where(*shown_where)
        .group_by(Submission.user_id, GradingRun.misconception)
        .subquery("shown")
    )
    passes = (
        select(Submission.user_id, GradingRun.id.label("run_id"))
        .join(Submission, GradingRun.submission_id == Submission.id)
        .where(*where, GradingRun.verdict == RunVerdict.PASSED)
        .subquery("passes")
    )
    # Each student's first pass after the last run that showed the misconception.
    moves = (
        select(
            shown.c.user_id,
            shown.c.misconception,
            shown.c.first_run,
            func.min(passes.c.run_id).label("pass_run"),
        )
        .select_from(shown)
        .outerjoin(
            passes,
            (passes.c.user_id == shown.c.user_id) & (passes.c.run_id > shown.c.last_run),
        )
        .group_by(shown.c.user_id, shown.c.misconception, shown.c.first_run)
        .subquery("moves")
    )
    latest = (
        select(Submission.user_id, GradingRun.misconception)
        .join(Submission, GradingRun.submission_id == Submission.id)
        .where(GradingRun.id.in_(latest_run_ids(exercise)))
        .subquery("latest")
    )
    first = aliased(GradingRun)
    passed = aliased(GradingRun)
    rows = session.execute(
        select(
            moves.c.misconception,
            User.id,
            User.name,
            _contact_email(),
            func.coalesce(first.finished_at, first.queued_at),
            passed.submission_id,
            func.coalesce(passed.finished_at, passed.queued_at),
            latest.c.misconception,
        )
        .select_from(moves)
        .join(User, User.id == moves.c.user_id)
        .join(first, first.id == moves.c.first_run)
        .outerjoin(passed, passed.id == moves.c.pass_run)
        .outerjoin(latest, latest.c.user_id == moves.c.user_id)
        .order_by(moves.c.misconception, User.name, User.id)
    ).all()
    found: dict[str, Trajectory] = {}
    weeks: dict[str, dict[str, list[int]]] = {}
    for name, user_id, user_name, email, first_at, pass_submission, passed_at, now in rows:
        trajectory = found.setdefault(name, Trajectory(name))
        by_week = weeks.setdefault(name, {})
        trajectory.ever += 1
        by_week.setdefault(_iso_week(first_at), [0, 0])[0] += 1
        if now == name:
            trajectory.still += 1
        if pass_submission is not None and passed_at is not None:
            trajectory.moved.append(
                StudentMoved(user_id, user_name, email, pass_submission, aware(passed_at))
            )
            by_week.setdefault(_iso_week(passed_at), [0, 0])[1] += 1
    for name, trajectory in found.items():
        trajectory.weeks = [
            Week(week, first_shown, moved)
            for week, (first_shown, moved) in sorted(weeks[name].items())
        ]
    return found


def _iso_week(moment: datetime) -> str:
    year, week, _ = aware(moment).isocalendar()
    return f"{year}-W{week:02d}"


# Names.


@lru_cache(maxsize=4)
def _load_shipped(folder: Path) -> Mapping[str, MisconceptionText]:
    return {
        implementation.name: implementation.misconception
        for implementation in load_library(folder)
        if implementation.misconception is not None
    }


def shipped_misconceptions(exercises_dir: Path) -> Mapping[str, MisconceptionText]:
    """The shipped library's misconceptions by library name, loaded once per folder (a
    library that does not load names none: its names fall back to their stems)."""
    try:
        return _load_shipped(Path(exercises_dir) / LIBRARY_FOLDER)
    except FileProblems:
        log.exception("the implementation library does not load")
        return {}


def describe(
    session: Session, exercise: Exercise, implementations: Collection[str], exercises_dir: Path
) -> dict[str, Description]:
    """What each of ``implementations`` (library names) is: the shipped library's
    misconception, the exercise's added implementation, else its stem; at most one
    statement (for the added ones)."""
    shipped = shipped_misconceptions(exercises_dir)
    stems = [name.removeprefix(ADDED) for name in implementations if name.startswith(ADDED)]
    added: dict[str, Description] = {}
    if stems:
        added = {
            f"{ADDED}{stem}": Description(
                f"{ADDED}{stem}", name, explanation, pseudocode, hint, added=True, known=True
            )
            for stem, name, explanation, pseudocode, hint in session.execute(
                select(
                    AddedImplementation.stem,
                    AddedImplementation.name,
                    AddedImplementation.explanation,
                    AddedImplementation.pseudocode,
                    AddedImplementation.hint,
                ).where(
                    AddedImplementation.exercise_id == exercise.id,
                    AddedImplementation.stem.in_(stems),
                )
            )
        }
    found = {}
    for name in implementations:
        if name in added:
            found[name] = added[name]
        elif "+" in name:  # two mistakes made together: family/first+second
            first, second = name.split("+", 1)
            family = first.rsplit("/", 1)[0]
            found[name] = _both(
                name, _shipped(shipped, first), _shipped(shipped, f"{family}/{second}")
            )
        else:
            found[name] = _shipped(shipped, name)
    return found


def _shipped(shipped: Mapping[str, MisconceptionText], name: str) -> Description:
    """What the shipped library says of ``name``, else its stem."""
    shown = shipped.get(name)
    if shown is None:
        return Description(name, name.rsplit("/", 1)[-1] or name, added=name.startswith(ADDED))
    return Description(
        name, shown.name, shown.explanation, shown.pseudocode, shown.hint, known=True
    )


def _both(name: str, first: Description, second: Description) -> Description:
    """Two mistakes made together, described as one."""
    return Description(
        name,
        f"{first.name} + {second.name}",
        f"{first.explanation} {second.explanation}".strip(),
        " · ".join(line for line in (first.pseudocode, second.pseudocode) if line),
        f"{first.hint} {second.hint}".strip(),
        known=first.known and second.known,
    )


# Pages.


def class_misconceptions(
    session: Session, exercise: Exercise, exercises_dir: Path
) -> ClassMisconceptions:
    """Every misconception shown in a counted run of ``exercise``, most students now
    first (then most ever, then by name), with the latest runs' other outcomes: four
    statements at most, whatever the class's size."""
    now = students_now(session, exercise)
    history = trajectories(session, exercise)
    names = sorted(set(now) | set(history))
    described = describe(session, exercise, names, exercises_dir)
    rows = [
        MisconceptionRow(described[name], now.get(name, []), history.get(name, Trajectory(name)))
        for name in names
    ]
    rows.sort(key=lambda row: (-len(row.now), -row.trajectory.ever, row.description.name))
    return ClassMisconceptions(rows, outcomes(session, exercise))


def misconception_row(
    session: Session, exercise: Exercise, implementation: str, exercises_dir: Path
) -> MisconceptionRow | None:
    """One misconception of ``exercise`` (by library name): what it is, who shows it now,
    its history; None when no counted run showed it and no library names it. Three
    statements at most."""
    now = students_now(session, exercise, implementation).get(implementation, [])
    trajectory = trajectories(session, exercise, implementation).get(
        implementation, Trajectory(implementation)
    )
    description = describe(session, exercise, [implementation], exercises_dir)[implementation]
    if not description.known and not trajectory.ever:
        return None
    return MisconceptionRow(description, now, trajectory)
