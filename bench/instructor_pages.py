"""The instructors' and students' pages of an exercise whose tree is the whole tic-tac-toe
game (549,946 nodes): how much work each request does.

An instructor uploads the exercise (about 100 bytes of exercise.yaml) through the app,
opens its preview while its analysis is queued, the analysis runs in this process (as a
worker would; timed on its own), then every page is asked for ``--repeat`` times with the
Flask test client: the preview, the analysis's status, publishing, the exercise's page,
its class results, the grade book as CSV, the teaching home, and a student's exercise and
submission pages (the submission graded in this process beforehand, a search that raises
at once). For each request the median and the slowest wall time and the median CPU time
(``time.process_time``) are printed; a request over one second is flagged.

``--baseline REV`` measures the same with the code of commit ``REV`` (a temporary git
worktree of it; this script run with ``PYTHONPATH`` pointing at it) and prints both side
by side. Pages the older code does not have are left out of its column. Usage:
  .venv/bin/python bench/instructor_pages.py [--repeat 3] [--baseline REV]
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import re
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import baseline  # the sibling script's: bench/ is on the path when run
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Exercise, ExerciseVersion, Membership, Role, User
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from grader.web import create_app
from reference.hidden import DEVELOPMENT_KEY

ROOT = Path(__file__).resolve().parents[1]
EXERCISE = """title: The whole game{suffix}
algorithm: minimax
trees:
  - name: full
    game: {{name: tictactoe}}
"""
SEARCH = """def max_value(game, state):
    raise RuntimeError("not written yet")


def min_value(game, state):
    raise RuntimeError("not written yet")
"""
HAS_COURSE_PAGES = importlib.util.find_spec("grader.web.roster") is not None
"""The pages of running a course (roster, regrade previews...), absent from older code."""
HAS_ANALYSIS = importlib.util.find_spec("grader.services.analyses") is not None
"""Whether the code measured analyses versions in a worker (not so before this change)."""
CLASS_RESULTS = (
    "class-results"
    if importlib.util.find_spec("grader.services.class_results") is not None
    else "analytics"
)
"""The class results page's path (older code called the page analytics)."""
SLOW = 1.0
"""Seconds of work a request may take."""

Timing = tuple[float, float]
"""(wall seconds, CPU seconds) of one request."""


def timed(call: Callable[[], Any]) -> tuple[Timing, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    answer = call()
    return (time.perf_counter() - wall, time.process_time() - cpu), answer


def sign_in(client: FlaskClient, user: User) -> None:
    with client.session_transaction() as session:
        session["_user_id"] = user.get_id()
        session["_fresh"] = True


def csrf(client: FlaskClient, path: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', client.get(path).get_data(True))
    assert found, f"no CSRF token on {path}"
    return found.group(1)


def measure(repeat: int) -> dict[str, Any]:
    """Every page's timings (and the analysis's), over an exercise made for this run."""
    pages: dict[str, list[Timing]] = {}
    extra: dict[str, Any] = {}

    def ask(name: str, call: Callable[[], Any], status: int = 200) -> Any:
        timing, response = timed(call)
        if response.status_code != status:
            raise SystemExit(f"{name} answered {response.status_code}, not {status}")
        pages.setdefault(name, []).append(timing)
        return response

    with tempfile.TemporaryDirectory(prefix="instructor-pages-") as folder:
        url = f"sqlite:///{Path(folder) / 'grader.db'}"
        upgrade(url)
        settings = Settings(
            env="development",
            instance_dir=Path(folder),
            database_url=url,
            hidden_tree_key=DEVELOPMENT_KEY,
            submission_min_gap_seconds=0,
            submissions_per_hour=1_000_000,
            eager_tasks=False,  # tasks reach a broker (a SQLite file) and wait there
        )
        database = Database(url)
        with database.session() as session:
            course = Course(title="Bench", join_code=secrets.token_hex(4))
            teacher = User(email="teacher@example.edu", name="Teacher", role=Role.INSTRUCTOR)
            student = User(email="student@example.edu", name="Student")
            session.add_all([course, teacher, student])
            session.flush()
            session.add(Membership(user_id=teacher.id, course_id=course.id, role=Role.INSTRUCTOR))
            session.add(Membership(user_id=student.id, course_id=course.id, role=Role.STUDENT))
        app = create_app(settings, database)
        client = app.test_client()
        sign_in(client, teacher)
        new = f"/teach/courses/{course.id}/exercises/new"
        for number in range(repeat):
            data = {
                "csrf_token": csrf(client, new),
                "slug": "whole-game",
                "files": [
                    (io.BytesIO(EXERCISE.format(suffix=f" {number}").encode()), "exercise.yaml")
                ],
            }
            ask("upload (POST)", lambda data=data: client.post(new, data=data), 302)  # type: ignore[misc]
        with database.session() as session:
            exercise = session.scalars(select(Exercise).where(Exercise.slug == "whole-game")).one()
            version = session.scalars(
                select(ExerciseVersion)
                .where(ExerciseVersion.exercise_id == exercise.id)
                .order_by(ExerciseVersion.id.desc())
            ).first()
            assert version is not None
            exercise_id, version_id = exercise.id, version.id
        preview = f"/teach/exercises/{exercise_id}/versions/{version_id}"
        first = "preview while analysing" if HAS_ANALYSIS else "preview (synchronous)"
        for _ in range(repeat):
            ask(first, lambda: client.get(preview))
        if HAS_ANALYSIS:
            for _ in range(repeat):
                ask("status (JSON) while analysing", lambda: client.get(preview + "/analysis"))
            extra["analysis"] = analyse_here(database, settings, version_id)
            for _ in range(repeat):
                ask("preview when done", lambda: client.get(preview))
                ask("status (JSON) when done", lambda: client.get(preview + "/analysis"))
        token = csrf(client, f"/teach/exercises/{exercise_id}/")
        for _ in range(repeat):
            ask(
                "publish (POST)",
                lambda: client.post(preview + "/publish", data={"csrf_token": token}),
                302,
            )
        with database.session() as session:
            published = session.get(Exercise, exercise_id)
            assert published is not None and published.current_version_id == version_id, (
                "the version was not published"
            )
        # A graded submission for the student's pages (graded here: a worker's work).
        with database.session() as session:
            user = session.get(User, student.id)
            found = session.get(Exercise, exercise_id)
            assert user is not None and found is not None
            submission = submit(session, settings, user, found, "search.py", SEARCH)
            run_ids = [run.id for run in submission.runs]
            submission_id = submission.id
        eager = replace(settings, eager_tasks=True)
        began = time.perf_counter()
        Queue(eager, database).send(GRADE_TASK, run_ids)
        extra["grading_seconds"] = time.perf_counter() - began
        pages_of = {
            "exercise page": f"/teach/exercises/{exercise_id}/",
            "class results": f"/teach/exercises/{exercise_id}/{CLASS_RESULTS}",
            "grades CSV": f"/teach/exercises/{exercise_id}/grades.csv",
            "course home": "/teach/",
        }
        for _ in range(repeat):
            for name, path in pages_of.items():
                ask(name, lambda path=path: client.get(path))  # type: ignore[misc]
        learner = app.test_client()
        sign_in(learner, student)
        for _ in range(repeat):
            ask("student exercise page", lambda: learner.get(f"/exercises/{exercise_id}"))
            ask("student submission page", lambda: learner.get(f"/submissions/{submission_id}"))
        if HAS_COURSE_PAGES:
            # Running the course: the roster, the exercise's students, a student's submission
            # as the instructor reads it, the audit log, the course's exercises, a regrade.
            course_pages = {
                "roster": f"/teach/courses/{course.id}/roster",
                "exercise's students": f"/teach/exercises/{exercise_id}/students",
                "submission (instructor)": f"/teach/submissions/{submission_id}",
                "audit log": f"/teach/courses/{course.id}/audit",
                "course exercises": f"/teach/courses/{course.id}/exercises",
            }
            for _ in range(repeat):
                for name, path in course_pages.items():
                    ask(name, lambda path=path: client.get(path))  # type: ignore[misc]
            token = csrf(client, f"/teach/exercises/{exercise_id}/{CLASS_RESULTS}")
            started = ask(
                "regrade (POST)",
                lambda: client.post(
                    f"/teach/exercises/{exercise_id}/regrade", data={"csrf_token": token}
                ),
                302,
            )
            regrade = started.headers["Location"]
            for _ in range(repeat):
                ask("regrade page", lambda: client.get(regrade))
                ask("regrade progress (JSON)", lambda: client.get(regrade + "/progress"))
        database.engine.dispose()
    return {"pages": pages, **extra}


def analyse_here(database: Database, settings: Settings, version_id: int) -> dict[str, float]:
    """Run the version's analysis in this process, as the worker's task does; its times."""
    from grader.services.analyses import analyse  # type: ignore[import-not-found,unused-ignore]

    timing, outcome = timed(lambda: analyse(database, settings, version_id, task_id="bench"))
    print(f"analysis: {outcome}", file=sys.stderr)
    return {"wall": timing[0], "cpu": timing[1]}


def at_commit(revision: str, repeat: int) -> dict[str, Any]:
    """The timings measured by commit ``revision``'s code (this script, run in a temporary
    git worktree of it)."""
    return dict(baseline.at_commit(revision, __file__, ["--repeat", str(repeat), "--json"]))


def summary(timings: list[Timing] | None) -> str:
    if not timings:
        return f"{'-':>27}"
    walls = [wall for wall, _ in timings]
    cpu = statistics.median(cpu for _, cpu in timings)
    flag = "!" if max(walls) > SLOW or cpu > SLOW else " "
    return (
        f"{statistics.median(walls) * 1000:8.0f} {max(walls) * 1000:8.0f} {cpu * 1000:7.0f}{flag}"
    )


def report(this: dict[str, Any], before: dict[str, Any] | None, revision: str) -> None:
    names = list(this["pages"])
    if before is not None:
        names += [name for name in before["pages"] if name not in names]
    heading = f"{'median ms':>8} {'max ms':>8} {'cpu ms':>7} "
    columns = ("baseline " + revision[:10], "this checkout") if before else ("this checkout",)
    print(f"{'request':<32}" + "".join(f"{column:>28}" for column in columns))
    print(f"{'':<32}" + "".join(f" {heading:>27}" for _ in columns))
    for name in names:
        row = f"{name:<32}"
        if before is not None:
            row += f" {summary(before['pages'].get(name))}"
        row += f" {summary(this['pages'].get(name))}"
        print(row)
    if "analysis" in this:
        print(
            f"the analysis task (a worker's): {this['analysis']['wall']:.1f} s wall, "
            f"{this['analysis']['cpu']:.1f} s CPU"
        )
    for label, measured in (("baseline", before), ("this checkout", this)):
        if measured is not None and "grading_seconds" in measured:
            print(
                f"grading the submission ({label}, a worker's): {measured['grading_seconds']:.1f} s"
            )
    print("! marks a request over 1 s (its slowest wall time or its median CPU time)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", default="", help="a commit to compare with")
    parser.add_argument("--json", action="store_true", help="print the timings as JSON")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.repeat)))
        return
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    before = at_commit(args.baseline, args.repeat) if args.baseline else None
    report(measure(args.repeat), before, args.baseline)


if __name__ == "__main__":
    main()
