"""Every instructor page of one exercise and its course, at 30 and at 1,000 students, on a
PostgreSQL that has not yet gathered statistics: how each page's answer time grows with the
class.

For each class size a fresh schema of the test PostgreSQL (``GRADER_TEST_DATABASE_URL``) is
migrated and filled, and the pages are timed at once, before any ``ANALYZE``: autovacuum is
switched off on every table (``autovacuum_enabled = false``), as it is unable to catch up
with a class filling up during a deadline rush. The class: each student has 2 to 4 attempts
on Figure 5.2's alpha-beta exercise (the reports of four of the library's searches, graded
once here and stored for every run as the worker stores a result: three with a diagnosed
misconception, one that passes), a check, a day apart over a due date with a late penalty;
every 10th student has an extension, every 25th an override, every 7th a regrade's
uncounted preview run on their latest attempt, every 9th a latest attempt still queued.

Each page is asked once (templates and statements compiled), then ``--repeat`` times by a
signed-in instructor with the Flask test client (the server's answer, no network): the class
results (with its misconceptions), the page of the most shown misconception, the students
page (the grade book as a page; also filtered on failures and sorted by grade), the grade
book as CSV, the course's roster, its audit log, the exercise's page, the course's exercises
and the teaching home. The table gives each page's median at 30 and at 1,000 students, their
ratio (the target: at most 3), and the medians of the part spent on SQL statements (from
sending each to reading its answer): what is left is the page's Python and templates, where
a page listing every student has its floor. ``--baseline REV`` measures the same with the
code of commit ``REV`` (a temporary git worktree of it, this script run with ``PYTHONPATH``
pointing at it) and prints it beside.
Usage:
  .venv/bin/python bench/class_size_pages.py [--sizes 30,1000] [--repeat 5] [--baseline REV]
      [--database-url URL]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import baseline  # the sibling script's: bench/ is on the path when run
from sqlalchemy import create_engine, event, func, inspect, select, text
from sqlalchemy.engine import make_url

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import (
    Course,
    Exercise,
    Extension,
    GradeOverride,
    GradingRun,
    LatePolicy,
    Membership,
    Role,
    RunState,
    Submission,
    User,
)
from grader.models.submissions import SubmissionKind
from grader.services.exercise_store import import_library, load_version
from grader.services.results import store_report
from grader.web import create_app
from reference.hidden import DEVELOPMENT_KEY
from worker.grading import grade

ROOT = Path(__file__).resolve().parents[1]
SLUG = "aima-fig5.2-alphabeta"
LIBRARY = ROOT / "exercises/implementations/alphabeta"
WRONG = ("wrong_no_pruning.py", "wrong_alpha_never_updated.py", "wrong_right_to_left.py")
RIGHT = "correct_fail_hard.py"
DUE = datetime(2026, 11, 20, 23, 59, tzinfo=UTC)
TARGET = 3.0
"""The most a page at 1,000 students may take, as a multiple of its time at 30."""


@dataclass(frozen=True)
class Class:
    """What the pages are asked about."""

    course_id: int
    exercise_id: int
    instructor: User
    misconception: str
    """The misconception most shown (its library name)."""


def build_class(database: Database, settings: Settings, students: int) -> Class:
    """A course of the shipped exercises with ``students`` students' work on Figure 5.2."""
    with database.session() as session:
        course = Course(title="Class size", join_code=secrets.token_hex(4))
        session.add(course)
        session.flush()
        import_library(session, settings, course)
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
        exercise.due_at = DUE
        exercise.late_policy = LatePolicy.PENALTY
        exercise.late_penalty_per_day = 10.0
        exercise.late_penalty_cap = 50.0
        version = exercise.current_version
        assert version is not None
        model = load_version(settings, SLUG, version)
        reports = {
            name: grade(
                model,
                (LIBRARY / name).read_text(),
                name,
                key=settings.hidden_tree_key,
                exercises_dir=settings.exercises_dir,
                draw=name,
            )
            for name in (*WRONG, RIGHT)
        }
        instructor = User(email="teacher@example.edu", name="Teacher", role=Role.INSTRUCTOR)
        session.add(instructor)
        session.flush()
        session.add(Membership(user_id=instructor.id, course_id=course.id, role=Role.INSTRUCTOR))
        for number in range(students):
            student = User(email=f"s{number}@example.edu", name=f"Student {number:04d}")
            session.add(student)
            session.flush()
            session.add(Membership(user_id=student.id, course_id=course.id, role=Role.STUDENT))
            attempts = 2 + number % 3
            start = DUE - timedelta(days=attempts - 1 - number % 2)
            for attempt in range(1, attempts + 1):
                at = start + timedelta(days=attempt - 1, minutes=number % 60)
                name = RIGHT if attempt == attempts and number % 3 == 0 else WRONG[
                    (number + attempt) % len(WRONG)
                ]  # fmt: skip
                submission = Submission(
                    user_id=student.id,
                    exercise_id=exercise.id,
                    attempt=attempt,
                    kind=SubmissionKind.ATTEMPT,
                    filename=name,
                    source=(LIBRARY / name).read_text(),
                    created_at=at,
                )
                session.add(submission)
                session.flush()
                waiting = attempt == attempts and number % 9 == 4
                run = GradingRun(
                    submission_id=submission.id,
                    exercise_version_id=version.id,
                    state=RunState.QUEUED if waiting else RunState.GRADED,
                    queued_at=at,
                    finished_at=None if waiting else at + timedelta(seconds=5),
                )
                session.add(run)
                session.flush()
                if not waiting:
                    store_report(session, run, reports[name], settings.node_rows_limit)
                if attempt == attempts and number % 7 == 1:  # a regrade's preview
                    preview = GradingRun(
                        submission_id=submission.id,
                        exercise_version_id=version.id,
                        state=RunState.GRADED,
                        counted=False,
                        queued_at=at,
                        finished_at=at + timedelta(seconds=9),
                    )
                    session.add(preview)
                    session.flush()
                    store_report(session, preview, reports[RIGHT], settings.node_rows_limit)
            check = Submission(
                user_id=student.id,
                exercise_id=exercise.id,
                attempt=0,
                kind=SubmissionKind.CHECK,
                filename=RIGHT,
                source="",
                created_at=start - timedelta(hours=1),
            )
            session.add(check)
            session.flush()
            session.add(
                GradingRun(
                    submission_id=check.id,
                    exercise_version_id=version.id,
                    state=RunState.GRADED,
                    verdict="passed",
                    queued_at=check.created_at,
                    finished_at=check.created_at,
                )
            )
            if number % 10 == 5:
                session.add(
                    Extension(
                        exercise_id=exercise.id,
                        user_id=student.id,
                        due_at=DUE + timedelta(days=3),
                        reason="ill",
                    )
                )
            if number % 25 == 3:
                session.add(
                    GradeOverride(
                        exercise_id=exercise.id,
                        user_id=student.id,
                        score=90.0,
                        max_score=100.0,
                        comment="seen in the lab",
                    )
                )
        session.flush()
        most = session.scalars(
            select(GradingRun.misconception)
            .where(GradingRun.misconception.is_not(None))
            .group_by(GradingRun.misconception)
            .order_by(func.count().desc(), GradingRun.misconception)
            .limit(1)
        ).one()
        assert most is not None
        return Class(course.id, exercise.id, instructor, most)


def pages_of(found: Class) -> dict[str, str]:
    exercise, course = f"/teach/exercises/{found.exercise_id}", f"/teach/courses/{found.course_id}"
    return {
        "class results": f"{exercise}/class-results",
        "misconception page": f"{exercise}/misconceptions/{found.misconception}",
        "students (grade book)": f"{exercise}/students",
        "students, failed, by grade": f"{exercise}/students?show=failed&sort=grade",
        "grade book CSV": f"{exercise}/grades.csv",
        "roster": f"{course}/roster",
        "audit log": f"{course}/audit",
        "exercise page": f"{exercise}/",
        "course exercises": f"{course}/exercises",
        "teaching home": "/teach/",
    }


@contextmanager
def fresh_schema(base: str) -> Iterator[str]:
    """A schema of its own on the PostgreSQL at ``base``, migrated, with autovacuum off on
    every table; dropped afterwards. Yields its URL."""
    schema = f"bench_class_size_{secrets.token_hex(4)}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    rendered = url.render_as_string(hide_password=False)
    try:
        upgrade(rendered)
        engine = create_engine(rendered)
        with engine.begin() as connection:
            for table in inspect(connection).get_table_names():
                connection.execute(text(f'ALTER TABLE "{table}" SET (autovacuum_enabled = false)'))
        engine.dispose()
        yield rendered
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def sql_time(database: Database) -> Iterator[list[float]]:
    """The seconds each statement run on ``database`` took (waiting on the server and
    reading its answer), appended as they end."""
    spent: list[float] = []

    def before(connection: Any, *_: Any) -> None:
        connection.info["bench_started"] = time.perf_counter()

    def after(connection: Any, *_: Any) -> None:
        spent.append(time.perf_counter() - connection.info.pop("bench_started"))

    event.listen(database.engine, "before_cursor_execute", before)
    event.listen(database.engine, "after_cursor_execute", after)
    try:
        yield spent
    finally:
        event.remove(database.engine, "before_cursor_execute", before)
        event.remove(database.engine, "after_cursor_execute", after)


def analysed_tables(url: str) -> list[str]:
    """The tables of the schema at ``url`` with statistics on their columns (should be none:
    the measurement is of a database that has none; the migrations analyse the tables
    they fill, empty here, which gathers none)."""
    engine = create_engine(url)
    with engine.connect() as connection:
        found = list(
            connection.execute(
                text(
                    "SELECT DISTINCT tablename FROM pg_stats "
                    "WHERE schemaname = current_schema() ORDER BY tablename"
                )
            ).scalars()
        )
    engine.dispose()
    return found


def measure(sizes: list[int], repeat: int, base: str) -> dict[str, Any]:
    """Each page's answer times and the part of them spent on SQL statements (seconds) at
    each class size, by size then page."""
    timings: dict[str, dict[str, list[tuple[float, float]]]] = {}
    built: dict[str, float] = {}
    for students in sizes:
        with fresh_schema(base) as url, tempfile.TemporaryDirectory() as folder:
            settings = Settings(
                env="development",
                instance_dir=Path(folder),
                database_url=url,
                hidden_tree_key=DEVELOPMENT_KEY,
            )
            database = Database(url)
            began = time.perf_counter()
            found = build_class(database, settings, students)
            built[str(students)] = time.perf_counter() - began
            client = create_app(settings, database).test_client()
            with client.session_transaction() as session:
                session["_user_id"] = found.instructor.get_id()
                session["_fresh"] = True
            for path in pages_of(found).values():  # templates and statements compiled once
                client.get(path)
            times: dict[str, list[tuple[float, float]]] = {}
            with sql_time(database) as spent:
                for _ in range(repeat):
                    for page, path in pages_of(found).items():
                        spent.clear()
                        start = time.perf_counter()
                        response = client.get(path)
                        wall = time.perf_counter() - start
                        times.setdefault(page, []).append((wall, sum(spent)))
                        if response.status_code != 200:
                            raise SystemExit(f"{path} answered {response.status_code}")
            database.engine.dispose()
            analysed = analysed_tables(url)
            if analysed:
                raise SystemExit(f"statistics were gathered meanwhile: {analysed}")
            timings[str(students)] = times
    return {"timings": timings, "built": built, "repeat": repeat}


def at_commit(revision: str, arguments: list[str]) -> dict[str, Any]:
    """The timings measured with commit ``revision``'s code (this script, run in a temporary
    git worktree of it)."""
    return dict(baseline.at_commit(revision, __file__, [*arguments, "--json"]))


def columns(measured: dict[str, Any], page: str, small: str, large: str) -> str:
    """A page's medians at both sizes (ms), their ratio, and the medians of their SQL
    statements' time."""
    at_small = measured["timings"][small].get(page)
    at_large = measured["timings"][large].get(page)
    if not at_small or not at_large:
        return f"{'-':>8} {'-':>8} {'-':>6}  {'-':>6} {'-':>6}"
    low, high = (statistics.median(wall for wall, _ in at) * 1000 for at in (at_small, at_large))
    sql_low, sql_high = (
        statistics.median(sql for _, sql in at) * 1000 for at in (at_small, at_large)
    )
    flag = "!" if high / low > TARGET else " "
    return f"{low:8.1f} {high:8.1f} {high / low:5.1f}{flag}  {sql_low:6.1f} {sql_high:6.1f}"


def report(this: dict[str, Any], before: dict[str, Any] | None, revision: str) -> None:
    small, large = sorted(this["timings"], key=int)[0], sorted(this["timings"], key=int)[-1]
    heading = f"{'at ' + small:>8} {'at ' + large:>8} {'ratio':>6}  {'sql':>6} {'sql':>6}"
    sizes = f"{'':>8} {'':>8} {'':>6}  {small:>6} {large:>6}"
    labels = [f"baseline {revision[:10]}", "this checkout"] if before else ["this checkout"]
    print(f"{'ms (median)':<27}" + "".join(f" | {label:<38}" for label in labels))
    print(f"{'':<27}" + "".join(f" | {heading}" for _ in labels))
    print(f"{'page':<27}" + "".join(f" | {sizes}" for _ in labels))
    for page in this["timings"][small]:
        row = f"{page:<27}"
        if before is not None:
            row += f" | {columns(before, page, small, large)}"
        row += f" | {columns(this, page, small, large)}"
        print(row)
    for label, measured in (("baseline", before), ("this checkout", this)):
        if measured is not None:
            built = ", ".join(
                f"{size}: {seconds:.0f} s" for size, seconds in measured["built"].items()
            )
            print(f"classes built ({label}): {built}")
    print(
        f"medians of {this['repeat']} requests; sql: the part spent on SQL statements; "
        f"! marks a ratio over {TARGET:g}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="30,1000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", default=os.environ.get("GRADER_TEST_DATABASE_URL", ""))
    parser.add_argument("--baseline", default="", help="a commit to compare with")
    parser.add_argument("--json", action="store_true", help="print the timings as JSON")
    args = parser.parse_args()
    if not args.database_url.startswith("postgresql"):
        raise SystemExit("a PostgreSQL is needed: --database-url or GRADER_TEST_DATABASE_URL")
    sizes = [int(size) for size in args.sizes.split(",")]
    if args.json:
        print(json.dumps(measure(sizes, args.repeat, args.database_url)))
        return
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    arguments = ["--sizes", args.sizes, "--repeat", str(args.repeat)]
    arguments += ["--database-url", args.database_url]
    before = at_commit(args.baseline, arguments) if args.baseline else None
    report(measure(sizes, args.repeat, args.database_url), before, args.baseline)


if __name__ == "__main__":
    main()
