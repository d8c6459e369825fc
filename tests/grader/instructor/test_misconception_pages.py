"""The instructor's pages on the class's misconceptions: the class results page's table, a
misconception's own page (who shows it now, who passed since, its weeks), the grade
book's column; for the course's instructors and admins only; a fixed number of
statements whatever the class's size."""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import event

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Role
from tests.grader.conftest import Backend, UserFactory, analysed
from tests.grader.instructor.helpers import find_exercise, login
from tests.grader.test_misconceptions import (
    NEVER_RAISED,
    NO_PRUNING,
    SLUG,
    attempt,
    report,
    shows,
    student,
)

PAGE = "/teach/exercises/{id}/misconceptions/{name}"


@contextmanager
def statements(database: Database) -> Iterator[list[str]]:
    """The SQL statements run on ``database`` inside the block."""
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(args[2])

    event.listen(database.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(database.engine, "before_cursor_execute", record)


def _class(backend: Backend, size: int) -> None:
    """``size`` students more: a third show a misconception (alternately exact and
    nearest), a third showed the other one and passed since, a third failed with no
    diagnosis."""
    for number in range(size):
        someone = student(backend, f"Student {number:02d}")
        if number % 3 == 0:
            attempt(backend, someone, shows(NEVER_RAISED, exact=number % 2 == 0))
        elif number % 3 == 1:
            attempt(backend, someone, shows(NO_PRUNING))
            attempt(backend, someone, report("passed"))
        else:
            attempt(backend, someone, report("runtime_error"))


def _backend(database: Database, settings: Settings, course: Course) -> Backend:
    return Backend("sqlite", settings, database, course)


def test_the_class_results_page_lists_the_misconceptions_and_links_to_each(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    backend = _backend(database, settings, course)
    ada, bob = student(backend, "Ada"), student(backend, "Bob")
    attempt(backend, ada, shows(NEVER_RAISED))
    attempt(backend, bob, shows(NO_PRUNING))
    attempt(backend, bob, shows(NEVER_RAISED, exact=False))
    attempt(backend, student(backend, "Cy"), report("passed"))
    attempt(backend, student(backend, "Dee"), report("passed"))
    attempt(backend, student(backend, "Di"), report("compile_error"))
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = find_exercise(database, course, SLUG)
    assert exercise is not None

    page = html.unescape(
        client.get(f"/teach/exercises/{exercise.id}/class-results").get_data(as_text=True)
    )

    rows = re.findall(
        r'<tr data-misconception="([^"]+)">\s*<th scope="row"><a href="([^"]+)">([^<]+)</a>'
        r'.*?<td class="now">(\d+)</td>\s*<td class="exact">(\d+)</td>\s*'
        r'<td class="ever">(\d+)</td>\s*<td class="moved">(\d+)</td>',
        page,
        re.S,
    )
    assert rows == [
        (
            NEVER_RAISED,
            PAGE.format(id=exercise.id, name=NEVER_RAISED),
            "alpha never raised at MAX nodes",
            *("2", "1", "2", "0"),
        ),
        (
            NO_PRUNING,
            PAGE.format(id=exercise.id, name=NO_PRUNING),
            "bounds kept but never used to prune",
            *("0", "0", "1", "0"),
        ),
    ]
    assert '<strong class="passed">2</strong> passed' in page
    assert '<strong class="undiagnosed">1</strong> did not pass' in page


def test_a_misconceptions_page_shows_who_has_it_now_and_who_passed_since(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    backend = _backend(database, settings, course)
    ada, bob = student(backend, "Ada"), student(backend, "Bob")
    ada_now, _ = attempt(backend, ada, shows(NEVER_RAISED, exact=False))
    attempt(backend, bob, shows(NEVER_RAISED))
    bob_passed, _ = attempt(backend, bob, report("passed"))
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = find_exercise(database, course, SLUG)
    assert exercise is not None

    response = client.get(PAGE.format(id=exercise.id, name=NEVER_RAISED))

    assert response.status_code == 200
    page = html.unescape(response.get_data(as_text=True))
    assert "<h1>Misconception: alpha never raised at MAX nodes</h1>" in page
    assert "Figure 5.7, MAX-VALUE" in page  # the textbook's line
    now = page[page.index('class="students-now"') : page.index("passed since</h2>")]
    assert re.search(
        rf'<th scope="row">Ada</th>.*?<td class="match">nearest</td>\s*'
        rf'<td><a href="/teach/submissions/{ada_now}">',
        now,
        re.S,
    )
    assert "Bob" not in now
    moved = page[page.index('class="students-moved"') : page.index("Week by week")]
    assert re.search(
        rf'<th scope="row">Bob</th>.*?href="/teach/submissions/{bob_passed}"', moved, re.S
    )
    assert "Ada" not in moved
    assert re.search(
        r'<tr data-week="\d{4}-W\d\d"><th scope="row">\d{4}-W\d\d</th>'
        r'<td class="first">2</td><td class="moved">1</td>',
        page,
    )


def test_a_misconception_nobody_showed_says_so_in_words(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = find_exercise(database, course, SLUG)
    assert exercise is not None

    response = client.get(PAGE.format(id=exercise.id, name=NO_PRUNING))

    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 200
    assert "No student's latest graded attempt shows it." in page
    assert "No student has passed since showing it." in page
    assert "No counted attempt has shown it yet." in page
    class_results = client.get(f"/teach/exercises/{exercise.id}/class-results").get_data(
        as_text=True
    )
    assert "No graded submission yet." in class_results


def test_the_pages_are_for_the_courses_instructors_and_admins_only(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    backend = _backend(database, settings, course)
    ada = student(backend, "Ada")
    attempt(backend, ada, shows(NEVER_RAISED))
    exercise = find_exercise(database, course, SLUG)
    assert exercise is not None
    url = PAGE.format(id=exercise.id, name=NEVER_RAISED)
    with database.session() as session:
        other = Course(title="Other", join_code="OTHER")
        session.add(other)

    login(client, make_user(Role.INSTRUCTOR, course))
    assert client.get(url).status_code == 200
    # A name no run shows and no library knows, and one too long to be a name.
    assert client.get(PAGE.format(id=exercise.id, name="alphabeta/nothing")).status_code == 404
    assert client.get(PAGE.format(id=exercise.id, name="a" * 300)).status_code == 404
    login(client, make_user(Role.ADMIN))
    assert client.get(url).status_code == 200
    login(client, make_user(Role.INSTRUCTOR, other))
    assert client.get(url).status_code == 404
    login(client, ada)
    assert client.get(url).status_code == 404
    login(client, make_user(Role.STUDENT, course))
    assert client.get(url).status_code == 404


def test_the_grade_book_names_each_students_latest_misconception(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    backend = _backend(database, settings, course)
    ada, bob = student(backend, "Ada"), student(backend, "Bob")
    attempt(backend, ada, shows(NO_PRUNING))
    attempt(backend, ada, shows(NEVER_RAISED))
    attempt(backend, bob, shows(NEVER_RAISED))
    attempt(backend, bob, report("passed"))
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = find_exercise(database, course, SLUG)
    assert exercise is not None

    response = client.get(f"/teach/exercises/{exercise.id}/grades.csv")

    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    by_name = {row["name"]: row["misconception"] for row in rows}
    assert by_name == {"Ada": "alpha never raised at MAX nodes", "Bob": ""}


def test_the_pages_run_as_many_statements_for_30_students_as_for_3(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    backend = _backend(database, settings, course)
    analysed(database, settings, course, SLUG)
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = find_exercise(database, course, SLUG)
    assert exercise is not None
    urls = [
        f"/teach/exercises/{exercise.id}/class-results",
        PAGE.format(id=exercise.id, name=NEVER_RAISED),
        PAGE.format(id=exercise.id, name=NO_PRUNING),
    ]

    def counted() -> list[int]:
        found = []
        for url in urls:
            client.get(url)  # the analysis's result is cached on its first reading
            with statements(database) as seen:
                assert client.get(url).status_code == 200, url
            found.append(len(seen))
        return found

    _class(backend, 3)
    small = counted()
    _class(backend, 27)
    large = counted()

    assert small == large
    page = client.get(urls[0]).get_data(as_text=True)
    assert '<td class="now">10</td>' in page  # the thirty are all counted
