"""Adding wrong implementations to an exercise's library: what the service refuses and
why (named per field), a library header filling the fields, the audit log, the check
queued after the commit only; activating, deleting and checking again."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.models import AddedImplementation, AddedState, AuditEvent, Exercise, Role, User, utcnow
from grader.services import added_implementations as library
from grader.services.unit_of_work import after_commit
from tests.grader.conftest import Backend
from tests.worker.added_sources import MIN_NEVER_PRUNES, SHIPPED_SOURCE, SLUG

LIMIT = 4096
GOOD = library.Draft(
    stem="min_never_prunes",
    name="MIN nodes never prune",
    explanation="MIN-VALUE never compares v with alpha.",
    pseudocode="Figure 5.7, MIN-VALUE: if v <= alpha then return v",
    hint="What should MIN-VALUE compare v with?",
    source=MIN_NEVER_PRUNES,
)


class Sent:
    """The checks a service asked to send, once (and only if) the session commits."""

    def __init__(self) -> None:
        self.ids: list[int] = []

    def dispatch(self, session: Session, _kind: str, added_ids: Iterable[int]) -> None:
        ids = list(added_ids)
        after_commit(session, lambda: self.ids.extend(ids))


def _exercise(session: Session, backend: Backend, slug: str = SLUG) -> Exercise:
    return session.scalars(
        select(Exercise).where(Exercise.course_id == backend.course.id, Exercise.slug == slug)
    ).one()


def _problems(backend: Backend, draft: library.Draft, limit: int = LIMIT) -> dict[str, str]:
    with backend.database.session() as session:
        exercise = _exercise(session, backend)
        return library.problems(session, exercise, draft.cleaned(), limit)


def _add(backend: Backend, author: User, draft: library.Draft = GOOD) -> tuple[int, Sent]:
    sent = Sent()
    with backend.database.session() as session:
        exercise = _exercise(session, backend)
        row = library.add(
            session, exercise, session.get(User, author.id), draft, limit=LIMIT, sender=sent
        )
        assert isinstance(row, AddedImplementation), row
        added_id = row.id
        assert sent.ids == []  # not before the commit
    assert sent.ids == [added_id]
    return added_id, sent


@pytest.mark.parametrize(
    "stem",
    ["Min Never Prunes", "min never", "../min", "min_", "_min", "min.py", "é", "x" * 81],
)
def test_a_stem_that_is_not_a_plain_slug_is_refused(backend: Backend, stem: str) -> None:
    found = _problems(backend, replace(GOOD, stem=stem))

    assert set(found) == {"stem"}


def test_a_stem_the_exercise_has_already_is_refused(backend: Backend) -> None:
    _add(backend, backend.user(Role.INSTRUCTOR))

    found = _problems(backend, GOOD)

    assert found == {"stem": "This exercise's library already has 'min_never_prunes'."}


def test_code_that_does_not_compile_is_refused_naming_its_line(backend: Backend) -> None:
    source = "def max_value(game, state, alpha, beta):\n    v = (\n\ndef min_value():\n  pass\n"
    found = _problems(backend, replace(GOOD, source=source))

    assert set(found) == {"source"}
    assert found["source"].startswith("The code does not compile: line 2, column ")
    assert "SyntaxError" in found["source"]


def test_every_missing_field_is_named_and_the_textbook_line_may_be_left_out(
    backend: Backend,
) -> None:
    found = _problems(backend, library.Draft(pseudocode="", source="   \n"))

    assert set(found) == {"stem", "name", "explanation", "hint", "source"}


def test_code_bigger_than_a_submission_may_be_is_refused(backend: Backend) -> None:
    big = MIN_NEVER_PRUNES + "#" * LIMIT
    found = _problems(backend, replace(GOOD, source=big))

    assert found == {
        "source": f"The code has {len(big.encode()):,} bytes; the limit is {LIMIT:,} bytes."
    }


def test_a_header_fills_the_fields_left_empty_and_the_file_name_the_stem() -> None:
    draft = library.filled_from_header(
        library.Draft(hint="My own hint.", source=SHIPPED_SOURCE),
        SHIPPED_SOURCE,
        "wrong_alpha_never_updated.py",
    )

    assert draft.stem == "wrong_alpha_never_updated"
    assert draft.name == "alpha never raised at MAX nodes"
    assert draft.explanation.startswith("α is the value of the best choice found so far")
    assert draft.explanation.endswith("would skip.")  # its continued lines joined
    assert draft.pseudocode == "Figure 5.7, MAX-VALUE: α ← MAX(α, v)"
    assert draft.hint == "My own hint."


def test_adding_one_writes_the_audit_log_and_queues_its_check_after_the_commit(
    backend: Backend,
) -> None:
    author = backend.user(Role.INSTRUCTOR)

    added_id, _ = _add(backend, author)

    with backend.database.session() as session:
        row = session.get(AddedImplementation, added_id)
        assert row is not None
        assert (row.state, row.active, row.author_id) == (AddedState.CHECKING, True, author.id)
        events = session.scalars(
            select(AuditEvent).where(AuditEvent.exercise_id == row.exercise_id)
        ).all()
        assert [(event.action, event.actor_id) for event in events] == [("library.add", author.id)]
        assert events[0].details["stem"] == "min_never_prunes"


def test_a_refused_draft_changes_nothing_and_queues_nothing(backend: Backend) -> None:
    sent = Sent()
    with backend.database.session() as session:
        exercise = _exercise(session, backend)
        author = session.get(User, backend.user(Role.INSTRUCTOR).id)
        assert author is not None
        found = library.add(
            session, exercise, author, library.Draft(stem="x"), limit=LIMIT, sender=sent
        )
        assert isinstance(found, dict)
        count = session.scalar(
            select(AddedImplementation.id).where(AddedImplementation.exercise_id == exercise.id)
        )
        assert count is None
    assert sent.ids == []


def test_activating_deleting_and_checking_again_are_audited(backend: Backend) -> None:
    author = backend.user(Role.INSTRUCTOR)
    added_id, _ = _add(backend, author)
    sent = Sent()
    with backend.database.session() as session:
        exercise = _exercise(session, backend)
        actor = session.get(User, author.id)
        row = session.get(AddedImplementation, added_id)
        assert actor is not None and row is not None
        assert library.set_active(session, exercise, actor, row, False)
        assert not library.set_active(session, exercise, actor, row, False)
        # A check under way is not queued twice; a failed one is.
        assert not library.check_again(session, exercise, actor, row, sent)
        row.state = AddedState.FAILED
        assert library.check_again(session, exercise, actor, row, sent)
        assert row.state == AddedState.CHECKING
    assert sent.ids == [added_id]
    with backend.database.session() as session:
        exercise = _exercise(session, backend)
        actor = session.get(User, author.id)
        row = session.get(AddedImplementation, added_id)
        assert actor is not None and row is not None
        library.delete(session, exercise, actor, row)
    with backend.database.session() as session:
        assert session.get(AddedImplementation, added_id) is None
        actions = session.scalars(
            select(AuditEvent.action)
            .where(AuditEvent.exercise_id == exercise.id, AuditEvent.action.like("library.%"))
            .order_by(AuditEvent.id)
        ).all()
    assert actions == ["library.add", "library.deactivate", "library.check", "library.delete"]


def test_a_check_waiting_too_long_may_be_queued_again(backend: Backend) -> None:
    added_id, _ = _add(backend, backend.user(Role.INSTRUCTOR))
    with backend.database.session() as session:
        row = session.get(AddedImplementation, added_id)
        assert row is not None
        later = utcnow() + library.STUCK_AFTER + timedelta(seconds=1)
        assert not library.stuck(row) and library.stuck(row, later)


def test_the_counts_are_read_from_the_results_without_their_signatures(backend: Backend) -> None:
    author = backend.user(Role.INSTRUCTOR)
    added_id, _ = _add(backend, author)
    waiting, _ = _add(backend, author, replace(GOOD, stem="other"))
    result = {"trees": [], "public": 1, "public_caught": 1, "hidden": 15, "hidden_caught": 9}
    with backend.database.session() as session:
        row = session.get(AddedImplementation, added_id)
        assert row is not None
        row.result, row.state = {**result, "completed": 16}, AddedState.READY

    with backend.database.session() as session:
        found = library.counts(session, [added_id, waiting])

    assert found[added_id] == library.Counts(1, 1, 15, 9, 16)
    assert found[added_id].caught == 10
    assert found[waiting] == library.Counts()
