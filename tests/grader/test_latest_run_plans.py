"""The instructor pages' queries plan the same whatever PostgreSQL's statistics: on a class
filled into a fresh schema and read at once, before any ``ANALYZE`` (autovacuum off, as it
cannot catch up during a deadline rush), no query joins rows by a nested loop that rescans
its inner side for each outer row (a join filter), nor probes an index that holds every
graded run of the database for each of them.

Without statistics PostgreSQL takes every condition to keep 0.5 % of a table's rows: the
students' latest runs look like one row, and a plan that is linear for one row is quadratic
for a class (1,000 students: 1.5 s for the misconceptions alone). The plans checked here
are those of each page, every statement it runs, read through ``EXPLAIN (ANALYZE, FORMAT
JSON)``."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import create_engine, event, insert, inspect, select, text
from sqlalchemy.engine import Connection, make_url
from werkzeug.test import TestResponse

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import (
    Course,
    Exercise,
    GradingRun,
    Membership,
    NodeResult,
    Role,
    Submission,
    TreeResult,
    User,
)
from grader.services.exercise_store import import_library
from grader.web import create_app
from tests.grader.instructor.helpers import login

SLUG = "aima-fig5.2-alphabeta"
STUDENTS = 300
MISCONCEPTIONS = ("alphabeta/wrong_no_pruning", "alphabeta/wrong_alpha_never_updated")
NODES = ("A", "B", "B1", "B2", "B3", "C", "C1", "C2", "C3", "D", "D1", "D2", "D3")
DUE = datetime(2026, 11, 20, 23, 59, tzinfo=UTC)

REFERENCE = re.compile(r"\b[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*\b")
"""A column of another relation in a scan's condition (``s.id``): the scan is a probe
parameterized by the outer row of its nested loop."""
PROBES = {"Index Scan", "Index Only Scan", "Bitmap Heap Scan", "Bitmap Index Scan", "Memoize"}
"""What may run once per outer row of a nested loop: an index probe (cached or not)."""


@dataclass(frozen=True)
class Filled:
    url: str
    course_id: int
    exercise_id: int
    instructor: User


@pytest.fixture
def unanalysed(settings: Settings) -> Iterator[tuple[Settings, Database, Filled]]:
    """A class of ``STUDENTS`` on Figure 5.2 in a schema of its own of the test PostgreSQL,
    migrated and filled with autovacuum off: no statistics at all."""
    base = os.environ.get("GRADER_TEST_DATABASE_URL", "")
    if not base.startswith("postgresql"):
        pytest.skip("no test PostgreSQL (GRADER_TEST_DATABASE_URL)")
    schema = f"grader_plans_{secrets.token_hex(4)}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    rendered = url.render_as_string(hide_password=False)
    database = None
    try:
        upgrade(rendered)
        database = Database(rendered)
        with database.engine.begin() as connection:
            for table in inspect(connection).get_table_names():
                connection.execute(text(f'ALTER TABLE "{table}" SET (autovacuum_enabled = false)'))
        settings = replace(settings, database_url=rendered)
        filled = fill(database, settings, rendered)
        yield settings, database, filled
    finally:
        if database is not None:
            database.engine.dispose()
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def fill(database: Database, settings: Settings, url: str) -> Filled:
    """Each student: three attempts a day apart around the due date (the last one still
    queued for every fifth student), a check, a regrade's uncounted preview run for every
    seventh; diagnosed misconceptions, passes, public and hidden tree rows, node rows."""
    with database.session() as session:
        course = Course(title="Rush", join_code=secrets.token_hex(4))
        session.add(course)
        session.flush()
        import_library(session, settings, course)
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
        exercise.due_at = DUE
        exercise.late_policy = "penalty"
        exercise.late_penalty_per_day = 10.0
        instructor = User(email="teacher@example.edu", name="Teacher", role=Role.INSTRUCTOR)
        session.add(instructor)
        session.flush()
        session.add(Membership(user_id=instructor.id, course_id=course.id, role=Role.INSTRUCTOR))
        course_id, exercise_id = course.id, exercise.id
        version_id = exercise.current_version_id
    with database.engine.begin() as connection:
        users = _insert(
            connection,
            User,
            [{"email": f"s{n}@example.edu", "name": f"Student {n:04d}"} for n in range(STUDENTS)],
        )
        _insert(
            connection,
            Membership,
            [{"user_id": user, "course_id": course_id, "role": Role.STUDENT} for user in users],
        )
        wanted = [
            (user, attempt, "attempt" if attempt else "check")
            for user in users
            for attempt in range(4)
        ]
        submissions = _insert(
            connection,
            Submission,
            [
                {
                    "user_id": user,
                    "exercise_id": exercise_id,
                    "attempt": attempt,
                    "kind": kind,
                    "filename": "a.py",
                    "source": "",
                    "origin": "web",
                    "created_at": DUE + timedelta(days=attempt - 2),
                }
                for user, attempt, kind in wanted
            ],
        )
        runs = []
        for (user, attempt, _), submission in zip(wanted, submissions, strict=True):
            graded = not (attempt == 3 and user % 5 == 0)
            passed = attempt == 3 and user % 3 == 0
            run = {
                "submission_id": submission,
                "exercise_version_id": version_id,
                "state": "graded" if graded else "queued",
                "queued_at": DUE + timedelta(days=attempt - 2),
                "finished_at": DUE + timedelta(days=attempt - 2, minutes=1) if graded else None,
                "verdict": ("passed" if passed else "failed") if graded else None,
                "score": (100.0 if passed else 40.0) if graded else None,
                "max_score": 100.0 if graded else None,
                "counted": True,
                "misconception": None if passed or not graded else MISCONCEPTIONS[user % 2],
                "misconception_exact": None if passed or not graded else user % 4 < 2,
            }
            runs.append(run)
            if attempt == 3 and user % 7 == 0:
                runs.append({**run, "state": "graded", "verdict": "passed", "counted": False})
        run_ids = _insert(connection, GradingRun, runs)
        trees = []
        for run_id, run in zip(run_ids, runs, strict=True):
            if run["state"] != "graded":
                continue
            wrong = run["verdict"] != "passed"
            for position, (name, hidden) in enumerate((("fig5.2", False), ("h1", True))):
                trees.append(
                    {
                        "run_id": run_id,
                        "position": position,
                        "name": name,
                        "hidden": hidden,
                        "verdict": "failed" if wrong else "passed",
                        "message": "",
                        "node_count": len(NODES),
                        "divergence_node": "C2" if wrong else None,
                        "divergence_message": "C2 was pruned" if wrong else None,
                    }
                )
        tree_ids = _insert(connection, TreeResult, trees)
        nodes = [
            {
                "tree_result_id": tree_id,
                "position": position,
                "node": node,
                "verdict": "extra" if tree["verdict"] == "failed" and node == "C2" else "ok",
                "message": "",
            }
            for tree_id, tree in zip(tree_ids, trees, strict=True)
            for position, node in enumerate(NODES)
        ]
        connection.execute(insert(NodeResult), nodes)
    return Filled(url, course_id, exercise_id, instructor)


def _insert(connection: Connection, model: Any, rows: list[dict[str, Any]]) -> list[int]:
    table = model.__table__
    return list(
        connection.scalars(
            insert(table).returning(table.c.id, sort_by_parameter_order=True), rows
        ).all()
    )


def statistics(database: Database) -> int:
    """How many columns of the schema's tables have statistics (the migrations analyse the
    tables they fill, empty here: that gathers none)."""
    with database.engine.connect() as connection:
        return int(
            connection.execute(
                text("SELECT count(*) FROM pg_stats WHERE schemaname = current_schema()")
            ).scalar_one()
        )


def pages(filled: Filled) -> dict[str, str]:
    exercise, course = (
        f"/teach/exercises/{filled.exercise_id}",
        f"/teach/courses/{filled.course_id}",
    )
    return {
        "class results": f"{exercise}/class-results",
        "misconception": f"{exercise}/misconceptions/{MISCONCEPTIONS[0]}",
        "students": f"{exercise}/students",
        "students failed, by grade": f"{exercise}/students?show=failed&sort=grade",
        "grade book CSV": f"{exercise}/grades.csv",
        "roster": f"{course}/roster",
        "audit log": f"{course}/audit",
        "exercise page": f"{exercise}/",
        "course exercises": f"{course}/exercises",
    }


def statements_of(database: Database, call: Any) -> list[tuple[str, Any]]:
    """The SELECT statements (and their parameters) run on ``database`` by ``call()``."""
    seen: list[tuple[str, Any]] = []

    def note(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            seen.append((statement, parameters))

    event.listen(database.engine, "before_cursor_execute", note)
    try:
        call()
    finally:
        event.remove(database.engine, "before_cursor_execute", note)
    return seen


def plan_of(database: Database, statement: str, parameters: Any) -> dict[str, Any]:
    with database.engine.connect() as connection:
        found = connection.exec_driver_sql(
            "EXPLAIN (FORMAT JSON) " + statement, parameters
        ).scalar_one()
    return dict(found[0]["Plan"])


def faults(node: dict[str, Any], inner: bool = False) -> list[str]:
    """What in the plan under ``node`` does work per outer row that grows with the class:
    a nested loop whose join is a filter over a rescanned inner side (rows removed by it),
    an inner side that is not an index probe by the outer row, an index AND-ed with another
    (a probe that reads every graded run's entry)."""
    kind = node["Node Type"]
    found = []
    if kind == "Nested Loop" and "Join Filter" in node:
        found.append(f"nested loop joined by a filter: {node['Join Filter']}")
    if kind == "BitmapAnd":
        found.append("an index AND-ed with another: " + _conditions(node))
    if inner and kind not in PROBES:
        found.append(f"{kind} done once per outer row")
    probe = kind in {"Index Scan", "Index Only Scan", "Bitmap Index Scan"}
    if inner and probe and not REFERENCE.search(node.get("Index Cond", "")):
        found.append(f"{kind} of {node.get('Index Name')} not probed by the outer row")
    children = node.get("Plans", [])
    for child in children:
        per_outer_row = inner or (kind == "Nested Loop" and child["Parent Relationship"] == "Inner")
        found.extend(faults(child, per_outer_row))
    return found


def _conditions(node: dict[str, Any]) -> str:
    return "; ".join(child.get("Index Cond", "") for child in node.get("Plans", []))


def test_no_page_plans_a_join_that_grows_with_the_class_squared(
    unanalysed: tuple[Settings, Database, Filled],
) -> None:
    settings, database, filled = unanalysed
    client = create_app(settings, database).test_client()
    login(client, filled.instructor)
    assert statistics(database) == 0, "the schema has statistics: these are not the rush's plans"

    found = []
    for page, path in pages(filled).items():
        answers: list[TestResponse] = []
        statements = statements_of(
            database,
            lambda path=path, answers=answers: answers.append(client.get(path)),  # type: ignore[misc]
        )
        assert answers[0].status_code == 200, page
        assert statements, page
        for statement, parameters in statements:
            for fault in faults(plan_of(database, statement, parameters)):
                found.append(f"{page}: {fault}\n    in {' '.join(statement.split())[:300]}")

    assert not found, "\n".join(found)
