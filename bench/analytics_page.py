"""The class analytics page over a large class: how long one exercise's page takes to answer.

A class of ``--students`` students, each with one graded run of Figure 5.2's alpha-beta
exercise (a 13-node public tree), their searches drawn in turn from the library's correct
and wrong implementations (each graded once, then stored for every student as the worker
stores a result: the report and its tree and node rows). The page is asked for
``--repeat`` times by a signed-in instructor through the app; the median and the spread of
its answer time are printed, with the time to build the class beside it.

Run it on two commits (a git worktree of the older one, with ``PYTHONPATH`` pointing at it)
to put two ways of computing the page side by side. Usage:
  .venv/bin/python bench/analytics_page.py [--students 1000] [--repeat 7] [--database-url URL]
Without ``--database-url`` the class lives in a temporary SQLite file.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Exercise, Membership, Role, RunState, User, utcnow
from grader.services.exercise_store import import_library, load_version
from grader.services.results import store_report
from grader.services.submissions import submit
from grader.web import create_app
from reference.hidden import DEVELOPMENT_KEY
from worker.grading import grade

ROOT = Path(__file__).resolve().parents[1]
SLUG = "aima-fig5.2-alphabeta"
LIBRARY = ROOT / "exercises/implementations/alphabeta"
SEARCHES = (
    "correct_fail_hard.py",
    "wrong_no_pruning.py",
    "wrong_alpha_never_updated.py",
    "wrong_right_to_left.py",
)


def build_class(database: Database, settings: Settings, students: int) -> tuple[int, User]:
    """The exercise's id and its instructor, with ``students`` graded students."""
    with database.session() as session:
        course = Course(title="Large class", join_code=secrets.token_hex(4))
        session.add(course)
        session.flush()
        import_library(session, settings, course)
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
        version = exercise.current_version
        assert version is not None
        model = load_version(settings, SLUG, version)
        reports = [
            grade(
                model,
                (LIBRARY / name).read_text(),
                name,
                key=settings.hidden_tree_key,
                exercises_dir=settings.exercises_dir,
                draw=name,
            )
            for name in SEARCHES
        ]
        instructor = User(email="teacher@example.edu", name="Teacher", role=Role.INSTRUCTOR)
        session.add(instructor)
        session.flush()
        session.add(Membership(user_id=instructor.id, course_id=course.id, role=Role.INSTRUCTOR))
        for number in range(students):
            student = User(email=f"s{number}@example.edu", name=f"Student {number}")
            session.add(student)
            session.flush()
            session.add(Membership(user_id=student.id, course_id=course.id, role=Role.STUDENT))
            name = SEARCHES[number % len(SEARCHES)]
            run = submit(
                session, settings, student, exercise, name, (LIBRARY / name).read_text()
            ).runs[0]
            run.state = RunState.GRADED
            run.finished_at = utcnow()
            store_report(session, run, reports[number % len(reports)], settings.node_rows_limit)
        return exercise.id, instructor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--database-url", default="", help="default: a temporary SQLite file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="analytics-page-") as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'grader.db'}"
        upgrade(url)
        settings = Settings(
            env="development",
            instance_dir=Path(folder),
            database_url=url,
            hidden_tree_key=DEVELOPMENT_KEY,
            submission_min_gap_seconds=0,
            submissions_per_hour=1_000_000,
        )
        database = Database(url)
        began = time.perf_counter()
        exercise_id, instructor = build_class(database, settings, args.students)
        built = time.perf_counter() - began
        app = create_app(settings, database)
        client = app.test_client()
        with client.session_transaction() as session:
            session["_user_id"] = instructor.get_id()
            session["_fresh"] = True
        path = f"/teach/exercises/{exercise_id}/analytics"
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            response = client.get(path)
            times.append(time.perf_counter() - start)
            if response.status_code != 200:
                raise SystemExit(f"{path} answered {response.status_code}")
        database.engine.dispose()
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(
        f"class: {args.students} students on {SLUG}, built in {built:.1f} s ({url.split(':')[0]})"
    )
    print(
        f"analytics page: median {statistics.median(times) * 1000:.0f} ms over {args.repeat} "
        f"(fastest {min(times) * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms)"
    )


if __name__ == "__main__":
    main()
