"""The feedback page of one graded submission, for public trees of 13, 447, 4,348 and 5,000
nodes (Figure 5.2's alpha-beta exercise; minimax on Nim from compartments 1-2-3 and 1-3-4
and on a generated random tree of exactly 5,000 nodes, the most a tree is drawn whole, each
with a search that is wrong at many nodes). Each version's analysis is made first, as a
worker makes it, so that the pages draw their trees.

Per page: the server's answer time (median of ``--repeat``) and its ratio to the 13-node
page's, the page's size as sent and gzipped; then the JSON documents the page's scripts
fetch, if any (the ``data-*-url`` attributes of the page: each answered in full, median of
``--repeat``, and revalidated with its ETag), so that no cost moved out of the page is left
out. For the largest page, Chromium's first contentful paint, the end of DOMContentLoaded
and the time the tree views took to be drawn, median of ``--loads`` loads. Static files
(d3, the page's scripts) are listed once, apart.

``--baseline REV`` runs the same measurements with the code of commit ``REV`` (a temporary
git worktree, this script run with ``PYTHONPATH`` pointing at it) and prints both side by
side in one table. Usage:

    .venv/bin/python bench/feedback_page.py [--repeat 9] [--loads 3] [--baseline 4d2a374]
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import logging
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

import baseline  # the sibling script's: bench/ is on the path when run
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Exercise, Membership, RunState, User, VersionAnalysis, utcnow
from grader.services.analyses import analyse
from grader.services.exercise_store import import_library, load_version
from grader.services.results import store_report
from grader.services.submissions import submit
from grader.web import create_app
from reference.hidden import DEVELOPMENT_KEY
from reference.naming import action_labels, child_names
from reference.tree import Edge, Kind, Node, Tree
from reference.treefile.render import render
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
GENERATED = """\
title: "Minimax on a random tree of {size} nodes"
algorithm: minimax
statement: |
  A random tree.
trees:
  - name: random-{size}
    file: random-{size}.tree.yaml
"""
GENERATED_NODES = 5_000
PAGES = (  # slug, solution, the nim compartments of a generated exercise, the tree's nodes
    ("aima-fig5.2-alphabeta", "alphabeta/wrong_alpha_never_updated.py", "", 13),
    ("nim-1-2-3", "minimax/wrong_last_child_wins.py", "1, 2, 3", 447),
    ("nim-1-3-4", "minimax/wrong_last_child_wins.py", "1, 3, 4", 4_348),
    (f"random-{GENERATED_NODES}", "minimax/wrong_last_child_wins.py", "", GENERATED_NODES),
)
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def random_tree(size: int, seed: int = 1) -> Tree:
    """A MAX/MIN tree of exactly ``size`` nodes, branching 2-4, built breadth first, with
    the textbook's names and utilities from -9 to 9."""
    rng = random.Random(seed)
    nodes: list[Node] = []
    frontier = deque([("A", Kind.MAX, True)])
    count = 1
    while frontier:
        name, kind, is_root = frontier.popleft()
        width = min(rng.randint(2, 4), size - count)
        if width <= 0:
            nodes.append(Node(name, Kind.LEAF, utility=rng.randint(-9, 9)))
            continue
        names = child_names(name, width, parent_is_root=is_root)
        count += width
        nodes.append(Node(name, kind, tuple(map(Edge, action_labels(name, width), names))))
        other = Kind.MIN if kind is Kind.MAX else Kind.MAX
        frontier.extend((child, other, False) for child in names)
    return Tree("A", nodes)


def library(folder: Path) -> Path:
    found = folder / "exercises"
    shutil.copytree(ROOT / "exercises" / PAGES[0][0], found / PAGES[0][0])
    for slug, _solution, compartments, nodes in PAGES[1:]:
        (found / slug).mkdir(parents=True)
        if compartments:
            name = slug.removeprefix("nim-")
            text = NIM.format(name=name, compartments=compartments)
        else:
            text = GENERATED.format(size=nodes)
            tree = render(random_tree(nodes), title=f"A random tree of {nodes} nodes")
            (found / slug / f"random-{nodes}.tree.yaml").write_text(tree)
        (found / slug / "exercise.yaml").write_text(text)
    return found


def graded_pages(database: Database, settings: Settings) -> tuple[User, list[tuple[str, int]]]:
    """A student and, per page, the exercise's slug and the graded submission's id (its
    version analysed, as a worker does it, so that the page draws its tree)."""
    made = []
    versions = []
    with database.session() as session:
        course = Course(title="Bench", join_code="BENCH1")
        session.add(course)
        session.flush()
        import_library(session, settings, course)
        student = User(email="s@example.edu", name="Student")
        session.add(student)
        session.flush()
        session.add(Membership(user_id=student.id, course_id=course.id))
        for slug, solution, _compartments, _nodes in PAGES:
            exercise = session.scalars(
                select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
            ).one()
            assert exercise.current_version is not None
            versions.append(exercise.current_version.id)
            if session.get(VersionAnalysis, exercise.current_version.id) is None:
                session.add(VersionAnalysis(version_id=exercise.current_version.id))
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
    for version in versions:
        analyse(database, settings, version, task_id="bench")
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
            # The tree views measure "treeview" once they are drawn (fetching what they
            # draw, if they do, included).
            for _wait in range(100):
                if driver.execute_script("return performance.getEntriesByName('treeview').length"):
                    break
                time.sleep(0.1)
            timing = driver.execute_script(
                "const paint = performance.getEntriesByName('first-contentful-paint')[0];"
                "const nav = performance.getEntriesByType('navigation')[0];"
                "return [paint ? paint.startTime : null, nav.domContentLoadedEventEnd,"
                " document.querySelectorAll('svg g.node').length,"
                " (performance.getEntriesByName('treeview')[0] || {}).duration];"
            )
            assert timing[2], "no tree drawn"
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


def timed(client: Any, path: str, repeat: int, **headers: str) -> tuple[float, Any]:
    """The median time (ms) of ``repeat`` answers to ``path`` and the last answer."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(path, headers=headers)
        times.append(time.perf_counter() - start)
        assert response.status_code in (200, 304), (path, response.status_code)
    return statistics.median(times) * 1000, response


def fetched(client: Any, body: bytes, repeat: int) -> list[dict[str, Any]]:
    """The documents the page's scripts fetch (its ``data-*-url`` attributes): each one's
    time in full and, when it has an ETag, revalidated (a 304), and its size."""
    found: list[dict[str, Any]] = []
    for kind, url in re.findall(rb'data-([a-z]+)-url="([^"]+)"', body):
        path = html.unescape(url.decode())
        if kind == b"status" or path in {item["path"] for item in found}:
            continue
        if kind == b"nodes":
            path += "0"  # a node's details, asked for when it is opened: the root's
        full, response = timed(client, path, repeat)
        data = response.get_data()
        etag = response.headers.get("ETag")
        again = timed(client, path, repeat, **{"If-None-Match": etag})[0] if etag else None
        found.append(
            {
                "kind": kind.decode(),
                "path": path,
                "median_ms": full,
                "revalidated_ms": again,
                "bytes": len(data),
                "gzip_bytes": len(gzip.compress(data)),
            }
        )
    return found


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
        for (slug, submission), page in zip(pages, PAGES, strict=True):
            path = f"/submissions/{submission}"
            start = time.perf_counter()
            assert client.get(path).status_code == 200
            first = (time.perf_counter() - start) * 1000
            median, response = timed(client, path, repeat)
            body = response.get_data()
            assert b"tree-views" in body, f"{slug}: no tree drawn"
            tree = re.search(rb'class="tree-data">(.*?)</script>', body, re.S)
            rows.append(
                {
                    "page": slug,
                    "nodes": page[3],
                    "first_ms": first,
                    "median_ms": median,
                    "html_bytes": len(body),
                    "gzip_bytes": len(gzip.compress(body)),
                    "tree_bytes": len(tree.group(1)) if tree else None,
                    "fetched": fetched(client, body, repeat),
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
    return dict(baseline.at_commit(revision, __file__, ["--json", *arguments]))


def _kib(size: int) -> str:
    return f"{size / 1024:6.1f}"


def table(results: list[tuple[str, dict[str, Any]]]) -> None:
    """The pages' server times, ratios and sizes, one column group per measured code."""
    labels = "".join(f" | {label[:38]:<38}" for label, _ in results)
    print(f"{'page':<22} {'nodes':>5}{labels}")
    heads = " | median  ratio  first   html KiB  gzip KiB " * len(results)
    print(f"{'':<22} {'':>5}{heads.rstrip()}")
    for at, page in enumerate(results[0][1]["pages"]):
        line = f"{page['page']:<22} {page['nodes']:>5}"
        for _label, result in results:
            row = result["pages"][at]
            ratio = row["median_ms"] / result["pages"][0]["median_ms"]
            line += (
                f" | {row['median_ms']:6.1f} {ratio:5.1f}x {row['first_ms']:6.1f}"
                f"   {_kib(row['html_bytes'])}    {_kib(row['gzip_bytes'])}"
            )
        print(line + "   (ms)")
    for label, result in results:
        fetches = [(row["page"], item) for row in result["pages"] for item in row["fetched"]]
        if not fetches:
            print(f"{label}: the page's scripts fetch nothing (all it draws is in the page)")
            continue
        print(f"{label}: what the page's scripts fetch (in full / revalidated, ms; KiB, gzipped)")
        for page, item in fetches:
            again = "-" if item["revalidated_ms"] is None else f"{item['revalidated_ms']:.1f}"
            print(
                f"  {page:<22} {item['kind']:<8} {item['median_ms']:6.1f} / {again:>5}"
                f"   {_kib(item['bytes'])} ({_kib(item['gzip_bytes']).strip()})"
            )
    for label, result in results:
        paint = result["paint"]
        print(
            f"{label}: largest page in Chromium: first contentful paint "
            f"{paint['fcp_ms']:.0f} ms, DOMContentLoaded end {paint['dcl_ms']:.0f} ms, "
            f"tree views drawn in {paint['treeview_ms']:.0f} ms (fetching what they draw, if"
            " they do, included)"
        )
        if result["scripts"]:
            total = sum(result["scripts"].values())
            print(f"  tree and replay scripts (cached after the first page): {_kib(total)} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--baseline", default="", help="a commit to compare with")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    common = ["--repeat", str(args.repeat), "--loads", str(args.loads)]
    if args.json:
        print(json.dumps(measure(args.repeat, args.loads)))
        return
    results = []
    if args.baseline:
        results.append((f"baseline {args.baseline}", at_commit(args.baseline, common)))
    results.append(("this checkout", measure(args.repeat, args.loads)))
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    table(results)


if __name__ == "__main__":
    main()
