"""The submission page lists the submitted code and points errors and divergences at its
lines, says when printed output was cut, and the exercise page lists every limit: through
the real app, graded in this process by the sandbox (the eager queue)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from grader.db import Database
from grader.models import Course, User
from reference.report import OUTPUT_CAP
from reference.reporting.limits import LIMITS
from tests.grader.conftest import UserFactory, login
from tests.grader.web.test_student_pages import exercise_id, paste
from worker.harness.host import default_request_cap
from worker.harness.local import entry_spec
from worker.sandbox.bounds import NoteBounds

LIBRARY = Path(__file__).resolve().parents[3] / "exercises" / "implementations"
WRONG = (LIBRARY / "alphabeta" / "wrong_alpha_never_updated.py").read_text(encoding="utf-8")
CORRECT = (LIBRARY / "alphabeta" / "correct_fail_hard.py").read_text(encoding="utf-8")


@pytest.fixture
def student(client: FlaskClient, course: Course, make_user: UserFactory) -> User:
    user = make_user(course=course)
    login(client, user)
    return user


def graded_page(client: FlaskClient, database: Database, course: Course, source: str) -> str:
    response = paste(client, exercise_id(database, course), source)
    assert response.status_code == 302
    return client.get(response.headers["Location"]).get_data(as_text=True)


def line_of(source: str, text: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), 1) if text in line)


def test_the_code_is_listed_with_an_anchor_per_line(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    page = graded_page(client, database, course, CORRECT)
    assert 'class="code-panel"' in page and 'href="/static/code.css"' in page
    count = len(CORRECT.splitlines())
    assert re.findall(r'id="line-(\d+)"', page) == [str(n) for n in range(1, count + 1)]
    assert '<span class="k">def</span> <span class="nf">max_value</span>' in page
    # Nothing to point at in a search that went as the reference's.
    assert 'class="line marked' not in page and 'class="line-link"' not in page


def test_a_compile_error_marks_its_line_and_the_message_links_to_it(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    source = "import math\n\ndef max_value(game, state, alpha, beta)\n    return 1\n"
    page = graded_page(client, database, course, source)
    assert 'class="line marked mark-error" id="line-3"' in page
    message = re.search(r'<p class="run-message[^"]*">(.*?)</p>', page, re.S)
    assert message is not None
    assert "(line 3, column" in message.group(1)
    assert '<a class="line-link" href="#line-3">go to line 3</a>' in message.group(1)


def test_a_runtime_error_marks_its_line_and_its_tree_links_to_it(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    source = CORRECT.replace('return game.utility(state, "MAX")', "return 1 / 0", 1)
    line = line_of(source, "1 / 0")
    page = graded_page(client, database, course, source)
    assert f'class="line marked mark-error" id="line-{line}"' in page
    assert f'Your code stopped at <a class="line-link" href="#line-{line}">line {line}</a>' in page


def test_the_first_divergence_links_to_its_node_and_the_calling_line(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    page = graded_page(client, database, course, WRONG)
    line = line_of(WRONG, "v = max(v, min_value(")
    assert 'at <a class="node-link" href="#node-fig5.2-C">C</a></h4>' in page
    assert f'made that call from <a class="line-link" href="#line-{line}">line {line}</a>' in page
    assert f'class="line marked mark-call" id="line-{line}"' in page
    assert "the first divergence, at node C, comes from here" in page


def test_the_first_divergence_says_where_its_fix_belongs(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    page = graded_page(client, database, course, WRONG)
    loop = line_of(WRONG, "for action in game.actions(state):")
    call = line_of(WRONG, "v = max(v, min_value(")
    assert loop < call
    assert (
        f'Nothing in the loop on <a class="line-link" href="#line-{loop}">line {loop}</a> '
        "changes <code>alpha</code>: its update belongs there." in page
    )
    assert f'class="line marked mark-fix" id="line-{loop}"' in page
    assert "where alpha should change (the first divergence, at node C)" in page


def test_output_past_what_is_kept_is_cut_with_a_note_and_full_marks(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    printed = 200 * 1024
    page = graded_page(client, database, course, f"print('x' * {printed - 1})\n" + CORRECT)
    assert "100 / 100" in page
    assert "x" * LIMITS.stdout_kept in page and "x" * (LIMITS.stdout_kept + 1) not in page
    note = re.search(r'<p class="output-cut"[^>]*>(.*?)</p>', page, re.S)
    assert note is not None
    assert f"{printed - LIMITS.stdout_kept:,} more bytes" in note.group(1)
    assert "does not change your grade" in note.group(1)


def test_the_exercise_page_lists_every_limit(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    page = client.get(f"/exercises/{exercise_id(database, course)}").get_data(as_text=True)
    limits = re.search(r'<section class="limits".*?</section>', page, re.S)
    assert limits is not None
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", limits.group(0)))
    # The shipped exercise's limits (exercises/aima-fig5.2-alphabeta/exercise.yaml).
    assert "CPU time 2 s per tree" in text
    assert "Real time 10 s per tree, 20 s for all the trees of a submission" in text
    assert "Memory 256 MB" in text
    assert f"the first {LIMITS.stdout_kept // 1024} KiB" in text
    assert f"more than {OUTPUT_CAP // 1024 // 1024} MiB on one tree ends that tree" in text
    assert "Game calls 40 per node of the tree, plus 1,000" in text
    assert "Calls of your search functions 4 per node of the tree, plus 10,500" in text
    assert "at least 10,000 nested calls" in text
    assert "File size" in text


def test_the_listed_call_and_recursion_limits_are_the_harness_own() -> None:
    from reference.treefile import parse_compact

    for size in (1, 13, 500):
        tree = parse_compact("MAX[" + " ".join(["1"] * (size - 1)) + "]" if size > 1 else "1")
        assert len(tree) == size
        assert default_request_cap(tree) == 40 * size + 1000
        spec = entry_spec("minimax", ("max_value", "min_value"), tree)
        assert spec.recursion_limit == 10_000
        # Each call of a search function is noted twice: its call and its return.
        notes = NoteBounds.for_tree(size, spec.recursion_limit).per_tree
        assert notes == 2 * (4 * size + 10_500)
