"""The class results page over a large class: how long one exercise's page takes to answer.

A class of ``--students`` students, each with one graded run of Figure 5.2's alpha-beta
exercise (a 13-node public tree), their searches drawn in turn from the library's correct
and wrong implementations (each graded once, then stored for every student as the worker
stores a result). The page is asked for
``--repeat`` times by a signed-in instructor through the app; the median and the spread of
its answer time are printed, with the time to build the class beside it.

``--baseline REV`` puts two ways of computing the page side by side in one run: the same
class is measured with the code of commit ``REV`` (a temporary git worktree of it, its own
copy of this script run with ``PYTHONPATH`` pointing at it) and with this checkout's,
alternately ``--rounds`` times, and the medians are printed with their ratio. Usage:
  .venv/bin/python bench/class_results_page.py [--students 1000] [--repeat 7] [--database-url URL]
      [--baseline REV [--rounds 3]]
Without ``--database-url`` the class lives in a temporary SQLite file (with one, every
measurement starts from an emptied schema: give a database of its own).
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import statistics
import subprocess
import sys
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


def measure(students: int, repeat: int, database_url: str) -> list[float]:
    """The page's answer times (seconds) over a class built for this measurement."""
    with tempfile.TemporaryDirectory(prefix="class-results-page-") as folder:
        url = database_url or f"sqlite:///{Path(folder) / 'grader.db'}"
        if database_url:
            reset_schema(url)
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
        exercise_id, instructor = build_class(database, settings, students)
        built = time.perf_counter() - began
        app = create_app(settings, database)
        client = app.test_client()
        with client.session_transaction() as session:
            session["_user_id"] = instructor.get_id()
            session["_fresh"] = True
        path = f"/teach/exercises/{exercise_id}/class-results"
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            response = client.get(path)
            times.append(time.perf_counter() - start)
            if response.status_code != 200:
                raise SystemExit(f"{path} answered {response.status_code}")
        database.engine.dispose()
    print(
        f"class: {students} students on {SLUG}, built in {built:.1f} s ({url.split(':')[0]})",
        file=sys.stderr,
    )
    return times


def reset_schema(url: str) -> None:
    """Empty the database at ``url`` (its public schema), for a class of its own."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


MEDIAN = re.compile(r"(?:class results|analytics) page: median ([0-9.]+) ms")
SCRIPTS = ("class_results_page.py", "analytics_page.py")
"""This script's name, and its name in commits from before the page was called class
results (when it printed "analytics page")."""


def at_commit(revision: str, arguments: list[str]) -> float:
    """The page's median (ms) measured by commit ``revision``'s code and copy of this
    script, in a temporary git worktree."""
    database_url = (
        arguments[arguments.index("--database-url") + 1] if "--database-url" in (arguments) else ""
    )
    if database_url:
        reset_schema(database_url)  # the older code migrates from empty
    with tempfile.TemporaryDirectory(prefix="class-results-baseline-") as folder:
        tree = Path(folder) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), revision],
            check=True,
        )
        try:
            environment = {**os.environ, "PYTHONPATH": str(tree)}
            done = subprocess.run(
                [sys.executable, str(tree / "bench" / "class_results_page.py"), *arguments],
                cwd=tree,
                env=environment,
                capture_output=True,
                text=True,
                check=True,
            )
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True
            )
    found = MEDIAN.search(done.stdout)
    if found is None:
        raise SystemExit(f"no median in the baseline's output:\n{done.stdout}{done.stderr}")
    return float(found.group(1))


def _script(tree: Path) -> Path:
    """This script's copy in the checkout ``tree``, under its name there."""
    copies = [tree / "bench" / name for name in SCRIPTS]
    return next((copy for copy in copies if copy.exists()), copies[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--database-url", default="", help="default: a temporary SQLite file")
    parser.add_argument("--baseline", default="", help="a commit to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    if not args.baseline:
        times = measure(args.students, args.repeat, args.database_url)
        print(
            f"class results page: median {statistics.median(times) * 1000:.0f} ms over "
            f"{args.repeat} (fastest {min(times) * 1000:.0f} ms, slowest "
            f"{max(times) * 1000:.0f} ms)"
        )
        return
    common = ["--students", str(args.students), "--repeat", str(args.repeat)]
    if args.database_url:
        common += ["--database-url", args.database_url]
    before: list[float] = []
    after: list[float] = []
    for _ in range(args.rounds):
        before.append(at_commit(args.baseline, common))
        times = measure(args.students, args.repeat, args.database_url)
        after.append(round(statistics.median(times) * 1000))
    backend = args.database_url.split(":")[0] if args.database_url else "sqlite"
    print(f"{args.students} students on {SLUG} ({backend}), median of {args.rounds} rounds:")
    print(f"  baseline {args.baseline[:10]:<10}: {statistics.median(before):6.0f} ms  {before}")
    print(f"  this checkout      : {statistics.median(after):6.0f} ms  {after}")
    print(f"  ratio this/baseline: {statistics.median(after) / statistics.median(before):.2f}")


if __name__ == "__main__":
    main()
