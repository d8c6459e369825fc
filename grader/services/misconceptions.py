"""The class's misconceptions on an exercise: which known mistakes the students' searches
behave like now, and how that changed over time.

Every figure is a query over the runs' ``misconception`` columns (filled by
:func:`grader.services.results.store_report` from each report's diagnosis: its nearest
misconception's library name, ``family/stem`` for the shipped library and ``added/<stem>``
for one an instructor added, and whether it matched on every tree); no report is read back.
Only counted graded runs of attempts count: a regrade's preview is no student's result.

- Now: over each student's latest counted graded run
  (:func:`grader.services.latest_runs.read_latest_runs`), the students who show each
  misconception (exactly, or as the nearest), and how many passed or have no diagnosis.
- Over time: over every counted graded run, the students who ever showed each
  misconception, those who moved from it to a pass (a counted passed run after the last
  run that showed it: one who passed and then showed it again has not moved), those who
  still show it, and per ISO week (UTC) of the runs' finish times, the students who first
  showed it and those who moved from it to a pass.

A misconception's name for people is the shipped library's (the file's ``misconception``
header) or the added implementation's; a name neither knows falls back to its stem.

The history is one pass over the exercise's runs with window functions (each counted run's
student's latest misconception, the first pass after it), not subqueries joined to each
other by student, which PostgreSQL without statistics joined by nested loops quadratic in
the class (1.5 s at 1,000 students): see :mod:`grader.services.latest_runs`.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session, aliased

from grader.models import AddedImplementation, Exercise, GradingRun, Submission, User
from grader.models.base import aware
from grader.models.submissions import SubmissionKind
from grader.services.latest_runs import LatestRun, contact_email, counting, read_latest_runs
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


def students_now(
    session: Session,
    exercise: Exercise,
    implementation: str | None = None,
    latest: Sequence[LatestRun] | None = None,
) -> dict[str, list[StudentNow]]:
    """The students whose latest counted run shows a misconception (``implementation``
    only, when given), by its library name, each list by name: from ``latest`` (the
    page's :func:`grader.services.latest_runs.read_latest_runs`), read here when not
    given."""
    if latest is None:
        latest = read_latest_runs(session, exercise, implementation)
    found: dict[str, list[StudentNow]] = {}
    for run in latest:
        if run.misconception is None or implementation not in (None, run.misconception):
            continue
        found.setdefault(run.misconception, []).append(
            StudentNow(run.user_id, run.name, run.email, run.submission_id, run.exact)
        )
    return found


def latest_names(
    session: Session, exercise: Exercise, latest: Sequence[LatestRun] | None = None
) -> dict[int, str]:
    """Each student's latest counted run's misconception (its library name), by user id;
    students without one are left out (``latest`` as for :func:`students_now`)."""
    return {
        run.user_id: run.misconception
        for run in _latest(session, exercise, latest)
        if run.misconception is not None
    }


def outcomes(
    session: Session, exercise: Exercise, latest: Sequence[LatestRun] | None = None
) -> Outcomes:
    """How many students' latest counted runs passed, and how many did not pass and carry
    no diagnosis (``latest`` as for :func:`students_now`)."""
    runs = _latest(session, exercise, latest)
    passed = sum(1 for run in runs if run.verdict == RunVerdict.PASSED)
    undiagnosed = sum(
        1
        for run in runs
        if run.verdict is not None
        and run.verdict != RunVerdict.PASSED
        and run.misconception is None
    )
    return Outcomes(passed, undiagnosed)


def _latest(
    session: Session, exercise: Exercise, latest: Sequence[LatestRun] | None
) -> Sequence[LatestRun]:
    return read_latest_runs(session, exercise) if latest is None else latest


def trajectories(
    session: Session, exercise: Exercise, implementation: str | None = None
) -> dict[str, Trajectory]:
    """Each misconception shown in a counted run (``implementation`` only, when given)
    over time, by its library name: one statement, a row per student and misconception.

    The statement reads the exercise's runs once, each with window functions over its
    student's counted runs (or uncounted ones) in id order: the student's latest run's
    misconception, the first pass after it, and over their runs showing the same
    misconception, the first one's time and the last one's id. The row of each student's
    last counted run showing a misconception is theirs for it; only the first pass after
    it (a run, by its id) is joined. Two sorts of the runs: by student, and by student and
    misconception."""
    counts = counting()
    student = (Submission.user_id, counts)
    shown_by = (*student, GradingRun.misconception)
    at = func.coalesce(GradingRun.finished_at, GradingRun.queued_at)
    passing = case((GradingRun.verdict == RunVerdict.PASSED, GradingRun.id))
    runs = (
        select(
            Submission.user_id,
            counts.label("counts"),
            GradingRun.id,
            GradingRun.misconception,
            func.first_value(at, type_=GradingRun.queued_at.type)
            .over(partition_by=shown_by, order_by=GradingRun.id)
            .label("first_at"),
            func.max(GradingRun.id).over(partition_by=shown_by).label("last_run"),
            # The runs after this one are the following rows: the first pass among them.
            func.min(passing)
            .over(partition_by=student, order_by=GradingRun.id, rows=(1, None))
            .label("pass_run"),
            func.last_value(GradingRun.misconception, type_=GradingRun.misconception.type)
            .over(partition_by=student, order_by=GradingRun.id, rows=(None, None))
            .label("now"),
        )
        .select_from(Submission)
        .join(GradingRun, GradingRun.submission_id == Submission.id)
        .where(Submission.exercise_id == exercise.id, Submission.kind == SubmissionKind.ATTEMPT)
        .subquery("runs")
    )
    shown = [runs.c.counts == 1, runs.c.id == runs.c.last_run, runs.c.misconception.is_not(None)]
    if implementation is not None:
        shown.append(runs.c.misconception == implementation)
    passed = aliased(GradingRun)
    rows = session.execute(
        select(
            runs.c.misconception,
            User.id,
            User.name,
            contact_email(),
            runs.c.first_at,
            passed.submission_id,
            func.coalesce(passed.finished_at, passed.queued_at),
            runs.c.now,
        )
        .select_from(runs)
        .join(User, User.id == runs.c.user_id)
        .outerjoin(passed, passed.id == runs.c.pass_run)
        .where(*shown)
        .order_by(runs.c.misconception, User.name, User.id)
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
    session: Session,
    exercise: Exercise,
    exercises_dir: Path,
    latest: Sequence[LatestRun] | None = None,
) -> ClassMisconceptions:
    """Every misconception shown in a counted run of ``exercise``, most students now
    first (then most ever, then by name), with the latest runs' other outcomes (``latest``
    as for :func:`students_now`): three statements at most, whatever the class's size."""
    latest = _latest(session, exercise, latest)
    now = students_now(session, exercise, latest=latest)
    history = trajectories(session, exercise)
    names = sorted(set(now) | set(history))
    described = describe(session, exercise, names, exercises_dir)
    rows = [
        MisconceptionRow(described[name], now.get(name, []), history.get(name, Trajectory(name)))
        for name in names
    ]
    rows.sort(key=lambda row: (-len(row.now), -row.trajectory.ever, row.description.name))
    return ClassMisconceptions(rows, outcomes(session, exercise, latest))


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
