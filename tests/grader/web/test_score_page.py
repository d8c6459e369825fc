"""The feedback page tells what makes each public tree's score and the total."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from grader.db import Database
from grader.models import Course, User
from tests.grader.conftest import UserFactory, login
from tests.grader.web.test_student_pages import NO_PRUNING, exercise_id, paste


@pytest.fixture
def student(client: FlaskClient, course: Course, make_user: UserFactory) -> User:
    user = make_user(course=course)
    login(client, user)
    return user


def text_of(html: str) -> str:
    """The page's text, tags dropped and spaces squeezed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_the_page_shows_the_parts_of_the_scores(
    client: FlaskClient, database: Database, course: Course, student: User
) -> None:
    response = paste(client, exercise_id(database, course), NO_PRUNING.read_text(encoding="utf-8"))
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    text = text_of(page)
    assert "How the score of fig5.2 is made" in text
    # No pruning on Figure 5.2: the value and the decision are right, C2, C3 are extra.
    # The function pair max_value / min_value returns no decision: left out, the value
    # (30) and the nodes (60) are scaled to 100.
    assert "Root value 33.33 / 33.33 right (30 points, scaled)" in text
    assert "Decision \u2013 not observed: left out, the other parts scaled up" in text
    found = re.search(r"Node verdicts ([\d.]+) / 66.67 (\d+) of 13 nodes ok", text)
    assert found is not None and found.group(2) == "11"  # C2 and C3 are extra
    score = re.search(r"Score ([\d.]+) / 100", text)
    assert score is not None
    assert float(score.group(1)) == round(33.33 + float(found.group(1)), 2)
    total = re.search(r"How your total of ([\d.]+) is made", text)
    assert total is not None
    assert re.search(r"1 public [\d.]+ % " + re.escape(score.group(1)), text)
    hidden = re.search(r"(\d+) hidden \((\d+) passed\) [\d.]+ % ([\d.]+)", text)
    assert hidden is not None
    equation = re.search(
        r"([\d.]+) % of ([\d.]+) \+ ([\d.]+) % of ([\d.]+) = ([\d.]+) of 100", text
    )
    assert equation is not None
    public_weight, mean, hidden_weight, hidden_mean, made = map(float, equation.groups())
    assert (public_weight, hidden_weight) == (50, 50)  # the default: half and half
    assert mean == float(score.group(1)) and made == float(total.group(1))
    assert (public_weight * mean + hidden_weight * hidden_mean) / 100 == pytest.approx(
        made, abs=0.01
    )
    # A hidden tree's share is a number: its verdict and reason, never its shape. Without
    # pruning, a failed one searched other nodes than the reference's: the value's 30.
    assert "The hidden trees (8) carry half of the score, the public trees the other half." in text
    assert "other nodes searched than the reference's (visits, order or pruning) 30 %" in text
    passed = int(hidden.group(2))
    assert hidden_mean == pytest.approx((100 * passed + 30 * (8 - passed)) / 8, abs=0.01)
