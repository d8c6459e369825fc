"""The feedback page of one graded submission, for public trees of 13, 447 and 4,348 nodes
(Figure 5.2's alpha-beta exercise; minimax on Nim from compartments 1-2-3 and 1-3-4, with a
search that is wrong at many nodes): the server's answer time (median of ``--repeat``), the
page's size as sent and gzipped, and, for the largest, Chromium's first contentful paint
and the end of DOMContentLoaded (the tree views are drawn by then), median of ``--loads``
loads. Static files (d3, the page's scripts) are listed once, apart.

``--baseline REV`` runs the same measurements with the code of commit ``REV`` (a temporary
git worktree, this script run with ``PYTHONPATH`` pointing at it) and prints both side by
side. Usage:

    .venv/bin/python bench/feedback_page.py [--repeat 5] [--loads 3] [--baseline i18-base]
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Exercise, Membership, RunState, User, utcnow
from grader.services.exercise_store import import_library, load_version
from grader.services.results import store_report
from grader.services.submissions import submit
from grader.web import create_app
from reference.hidden import DEVELOPMENT_KEY
from worker.grading import grade

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "exercises" / "implementations"
NIM = """\
title: "Minimax on Nim {name}"
algorithm: minimax
statement: |
  Nim.
trees:
  - name: nim-{name}
    game: {{name: nim, options: {{compartments: [{compartments}]}}}}
"""
PAGES = (  # slug, solution, the nim compartments of a generated exercise
    ("aima-fig5.2-alphabeta", "alphabeta/wrong_alpha_never_updated.py", ""),
    ("nim-1-2-3", "minimax/wrong_last_child_wins.py", "1, 2, 3"),
    ("nim-1-3-4", "minimax/wrong_last_child_wins.py", "1, 3, 4"),
)
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def library(folder: Path) -> Path:
    found = folder / "exercises"
    shutil.copytree(ROOT / "exercises" / PAGES[0][0], found / PAGES[0][0])
    for slug, _solution, compartments in PAGES[1:]:
        (found / slug).mkdir(parents=True)
        name = slug.removeprefix("nim-")
        text = NIM.format(name=name, compartments=compartments)
        (found / slug / "exercise.yaml").write_text(text)
    return found


def graded_pages(database: Database, settings: Settings) -> tuple[User, list[tuple[str, int]]]:
    """A student and, per page, the exercise's slug and the graded submission's id."""
    made = []
    with database.session() as session:
        course = Course(title="Bench", join_code="BENCH1")
        session.add(course)
        session.flush()
        import_library(session, settings, course)
        student = User(email="s@example.edu", name="Student")
        session.add(student)
        session.flush()
        session.add(Membership(user_id=student.id, course_id=course.id))
        for slug, solution, _compartments in PAGES:
            exercise = session.scalars(
                select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
            ).one()
            assert exercise.current_version is not None
            model = load_version(settings, slug, exercise.current_version)
            source = (LIBRARY / solution).read_text()
            report = grade(
                model, source, "s.py", key=settings.hidden_tree_key,
                exercises_dir=settings.exercises_dir,
            )  # fmt: skip
            submission = submit(session, settings, student, exercise, "s.py", source)
            run = submission.runs[0]
            run.state = RunState.GRADED
            run.finished_at = utcnow()
            store_report(session, run, report, settings.node_rows_limit)
            session.flush()
            made.append((slug, submission.id))
        session.expunge(student)
    return student, made


def first_paint(app: Any, cookie: tuple[str, str], path: str, loads: int) -> dict[str, float]:
    """Chromium's first contentful paint, DOMContentLoaded end and the time the tree views
    took to draw (ms) for ``path``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1400,1000"):  # fmt: skip
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    base = f"http://127.0.0.1:{server.server_port}"
    paints, loaded, drawn = [], [], []
    try:
        driver.get(base + "/login")
        driver.add_cookie({"name": cookie[0], "value": cookie[1], "path": "/"})
        for _ in range(loads):
            driver.get(base + path)
            time.sleep(0.3)
            timing = driver.execute_script(
                "const paint = performance.getEntriesByName('first-contentful-paint')[0];"
                "const nav = performance.getEntriesByType('navigation')[0];"
                "return [paint ? paint.startTime : null, nav.domContentLoadedEventEnd,"
                " document.querySelectorAll('svg g.node').length,"
                " (performance.getEntriesByName('treeview')[0] || {}).duration];"
            )
            paints.append(timing[0])
            loaded.append(timing[1])
            drawn.append(timing[3] or 0)
    finally:
        driver.quit()
        server.shutdown()
    return {
        "fcp_ms": statistics.median(paints),
        "dcl_ms": statistics.median(loaded),
        "treeview_ms": statistics.median(drawn),
    }


def measure(repeat: int, loads: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="feedback-page-") as folder:
        url = f"sqlite:///{Path(folder) / 'grader.db'}"
        upgrade(url)
        settings = Settings(
            env="development",
            instance_dir=Path(folder),
            database_url=url,
            exercises_dir=library(Path(folder)),
            hidden_tree_key=DEVELOPMENT_KEY,
        )
        database = Database(url)
        student, pages = graded_pages(database, settings)
        app = create_app(settings, database)
        client = app.test_client()
        with client.session_transaction() as session:
            session["_user_id"] = student.get_id()
            session["_fresh"] = True
        rows = []
        for slug, submission in pages:
            path = f"/submissions/{submission}"
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                response = client.get(path)
                times.append(time.perf_counter() - start)
                assert response.status_code == 200, response.status_code
            body = response.get_data()
            tree = re.search(rb'class="tree-data">(.*?)</script>', body, re.S)
            rows.append(
                {
                    "page": slug,
                    "median_ms": statistics.median(times) * 1000,
                    "html_bytes": len(body),
                    "gzip_bytes": len(gzip.compress(body)),
                    "tree_bytes": len(tree.group(1)) if tree else None,
                }
            )
        # The static files of the code measured (a baseline's, under --baseline).
        static = Path(sys.modules[create_app.__module__].__file__ or "").parent / "static"
        scripts = sorted(
            str(path.relative_to(static))
            for path in static.rglob("*.js")
            if "vendor/d3" in str(path) or path.name in ("treeview.js", "replay.js")
        )
        name = app.config.get("SESSION_COOKIE_NAME", "session")
        cookie = client.get_cookie(name)
        assert cookie is not None
        paint = first_paint(app, (name, cookie.value), f"/submissions/{pages[-1][1]}", loads)
        database.engine.dispose()
    sizes = {
        path: len((static / path).read_bytes()) for path in scripts if (static / path).exists()
    }
    return {"pages": rows, "paint": paint, "scripts": sizes}


def at_commit(revision: str, arguments: list[str]) -> dict[str, Any]:
    """The measurements with commit ``revision``'s code (this script, its PYTHONPATH there)."""
    with tempfile.TemporaryDirectory(prefix="feedback-baseline-") as folder:
        tree = Path(folder) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), revision],
            check=True,
        )
        try:
            done = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--json", *arguments],
                cwd=tree,
                env={**os.environ, "PYTHONPATH": str(tree)},
                capture_output=True,
                text=True,
                check=True,
            )
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True
            )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def show(label: str, result: dict[str, Any]) -> None:
    print(f"{label}:")
    for row in result["pages"]:
        print(
            f"  {row['page']:<24} server {row['median_ms']:7.1f} ms   html "
            f"{row['html_bytes'] / 1024:7.1f} KiB (gzipped {row['gzip_bytes'] / 1024:5.1f} KiB)"
            + (f", tree data {row['tree_bytes'] / 1024:6.1f} KiB" if row.get("tree_bytes") else "")
        )
    paint = result["paint"]
    print(
        f"  largest page in Chromium: first contentful paint {paint['fcp_ms']:.0f} ms, "
        f"DOMContentLoaded end {paint['dcl_ms']:.0f} ms"
        + (
            f" (tree views drawn in {paint['treeview_ms']:.0f} ms)"
            if paint.get("treeview_ms")
            else ""
        )
    )
    if result["scripts"]:
        total = sum(result["scripts"].values())
        print(f"  tree and replay scripts (cached after the first page): {total / 1024:.1f} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--baseline", default="", help="a commit to compare with")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    common = ["--repeat", str(args.repeat), "--loads", str(args.loads)]
    result = measure(args.repeat, args.loads)
    if args.json:
        print(json.dumps(result))
        return
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    if args.baseline:
        show(f"baseline {args.baseline}", at_commit(args.baseline, common))
    show("this checkout", result)


if __name__ == "__main__":
    main()
