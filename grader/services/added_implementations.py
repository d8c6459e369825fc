"""The wrong implementations instructors add to an exercise's library, so that the
diagnosis can name their mistake (beside the shipped ones in ``exercises/implementations``).

An added implementation is the course's code, not the project's: here it is only compiled
(``compile()``, never run) to report a syntax error at once; a worker runs it in the
sandbox on the exercise's trees (``worker.added_check``), queued after the commit, and
stores which trees catch it. The services change rows and write the audit log; the
request's unit of work commits.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from grader.models import AddedImplementation, AddedState, Exercise, User, utcnow
from grader.models.base import aware
from grader.services import audit
from grader.services.submissions import SubmissionRefused, decode_source
from grader.services.tasks import CHECK_ADDED_TASK
from grader.services.unit_of_work import Dispatcher
from reference.exercises.model import Exercise as ExerciseModel
from reference.hidden import LIBRARY_FOLDER, load_library
from reference.hidden.library import Implementation, parse_header

STEM = re.compile(r"^[a-z0-9]+(?:[_-][a-z0-9]+)*$")
"""A plain slug: lower-case letters and digits, words joined by ``_`` or ``-``."""
STEM_LENGTH = 80
NAME_LENGTH = 200
TEXT_LENGTH = 4000
"""Characters of an explanation, textbook line or hint (a paragraph, not a file)."""
STUCK_AFTER = timedelta(minutes=15)
"""A check still waiting this long lost its task: the page offers to queue it again."""
FROM_HEADER = {"misconception": "name", "explanation": "explanation", "pseudocode": "pseudocode",
               "hint": "hint"}  # fmt: skip
"""The library header's keys that fill the form's fields."""
REQUIRED = {
    "stem": "Give it a name in the library (a slug such as max_never_raises_alpha).",
    "name": "Name the misconception, as students will read it.",
    "explanation": "Explain the mistake to students, in the textbook's terms.",
    "hint": "Give students a hint: where to look, without the code.",
    "source": "Paste the implementation's code or choose its .py file.",
}


@dataclass(frozen=True, slots=True)
class Draft:
    """What an instructor gives for a new implementation: the misconception as students
    will read it (name, explanation, textbook line, hint), its stem and its code."""

    stem: str = ""
    name: str = ""
    explanation: str = ""
    pseudocode: str = ""
    hint: str = ""
    source: str = ""

    def cleaned(self) -> Draft:
        """The draft with its text fields stripped and its source's line ends made ``\\n``."""
        return Draft(
            stem=self.stem.strip(),
            name=" ".join(self.name.split()),
            explanation=self.explanation.strip(),
            pseudocode=self.pseudocode.strip(),
            hint=self.hint.strip(),
            source=self.source.replace("\r\n", "\n"),
        )


def read_upload(data: bytes, limit: int) -> str:
    """The text of an uploaded ``.py`` file; SubmissionRefused (with its message) when it
    is too big, empty, binary or not UTF-8, as for a student's file."""
    return decode_source(data, limit)


def filled_from_header(draft: Draft, source: str, filename: str = "") -> Draft:
    """``draft`` with the fields it leaves empty taken from ``source``'s library header
    (``# misconception:``, ``# explanation:``, ``# pseudocode:``, ``# hint:``, see
    ``exercises/implementations/README.md``) and its stem from ``filename``."""
    found, _ = parse_header(source, filename or "upload.py")
    values: dict[str, str] = {}
    for key, field_name in FROM_HEADER.items():
        if key in found and not getattr(draft, field_name):
            values[field_name] = found[key][0]
    stem = Path(filename.replace("\\", "/")).stem.lower()
    if not draft.stem and STEM.match(stem):
        values["stem"] = stem
    return replace(draft, **values)


def header_expect(source: str) -> str | None:
    """What ``source``'s library header says it is (``correct`` or ``wrong``), if it has
    one."""
    found, _ = parse_header(source, "upload.py")
    return found["expect"][0] if "expect" in found else None


def compile_problem(source: str, filename: str) -> str | None:
    """Why ``source`` does not compile (naming the line), or None. Compiled only: this
    process never runs an added implementation."""
    try:
        # A warning (an ``is`` with a literal) is not an error, and must not become one
        # under the process's own filters.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as error:  # IndentationError and TabError too
        where = f"line {error.lineno}" if error.lineno else "the file"
        if error.lineno and error.offset:
            where += f", column {error.offset}"
        return f"{where}: {type(error).__name__}: {error.msg}"
    except (ValueError, UnicodeEncodeError):
        return "the code holds a character that is not valid text (a NUL or a lone surrogate)"
    except (RecursionError, MemoryError, OverflowError):
        return "the code nests expressions or blocks too deeply to compile"
    return None


def problems(session: Session, exercise: Exercise, draft: Draft, limit: int) -> dict[str, str]:
    """What is wrong with ``draft`` (cleaned) for ``exercise``, by field name; empty when
    it may be added. ``limit``: the most bytes its source may have (a submission's)."""
    found: dict[str, str] = {}
    for field_name, message in REQUIRED.items():
        if not getattr(draft, field_name).strip():
            found[field_name] = message
    if "stem" not in found:
        if len(draft.stem) > STEM_LENGTH:
            found["stem"] = f"At most {STEM_LENGTH} characters."
        elif not STEM.match(draft.stem):
            found["stem"] = (
                "Lower-case letters and digits only, words joined by _ or - "
                "(such as max_never_raises_alpha)."
            )
        elif _taken(session, exercise.id, draft.stem):
            found["stem"] = f"This exercise's library already has {draft.stem!r}."
    if len(draft.name) > NAME_LENGTH:
        found["name"] = f"At most {NAME_LENGTH} characters."
    for field_name in ("explanation", "pseudocode", "hint"):
        if len(getattr(draft, field_name)) > TEXT_LENGTH:
            found[field_name] = f"At most {TEXT_LENGTH} characters."
    if "source" not in found:
        size = len(draft.source.encode("utf-8", "surrogatepass"))
        if size > limit:
            found["source"] = f"The code has {size:,} bytes; the limit is {limit:,} bytes."
        elif header_expect(draft.source) == "correct":
            found["source"] = (
                "Its header says 'expect: correct': only wrong implementations are added here."
            )
        else:
            wrong = compile_problem(draft.source, f"{draft.stem or 'added'}.py")
            if wrong is not None:
                found["source"] = f"The code does not compile: {wrong}."
    return found


def _taken(session: Session, exercise_id: int, stem: str) -> bool:
    return (
        session.scalar(
            select(AddedImplementation.id).where(
                AddedImplementation.exercise_id == exercise_id, AddedImplementation.stem == stem
            )
        )
        is not None
    )


def add(
    session: Session,
    exercise: Exercise,
    author: User,
    draft: Draft,
    *,
    limit: int,
    sender: Dispatcher,
) -> AddedImplementation | dict[str, str]:
    """Add ``draft`` to ``exercise``'s library and queue its check (sent after the commit);
    or, when it may not be added, what is wrong with it by field name (nothing changed)."""
    draft = draft.cleaned()
    found = problems(session, exercise, draft, limit)
    if found:
        return found
    row = AddedImplementation(
        exercise_id=exercise.id,
        author_id=author.id,
        stem=draft.stem,
        source=draft.source,
        name=draft.name,
        explanation=draft.explanation,
        pseudocode=draft.pseudocode,
        hint=draft.hint,
        active=True,
        state=AddedState.CHECKING,
        result=_queued(),
    )
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError:  # another request added the same stem at the same moment
        return {"stem": f"This exercise's library already has {draft.stem!r}."}
    _audit(session, author, exercise, row, "library.add", name=row.name)
    sender.dispatch(session, CHECK_ADDED_TASK, [row.id])
    return row


def implementations(session: Session, exercise: Exercise) -> list[AddedImplementation]:
    """The implementations added to ``exercise``'s library (without their results), by
    stem."""
    return list(
        session.scalars(
            select(AddedImplementation)
            .where(AddedImplementation.exercise_id == exercise.id)
            .order_by(AddedImplementation.stem)
        )
    )


@dataclass(frozen=True, slots=True)
class Counts:
    """How many of the trees an implementation was checked on catch it."""

    public: int = 0
    public_caught: int = 0
    hidden: int = 0
    hidden_caught: int = 0
    completed: int = 0

    @property
    def caught(self) -> int:
        return self.public_caught + self.hidden_caught

    @classmethod
    def of(cls, result: dict[str, Any] | None) -> Counts:
        """The counts a check's result document holds (zeros without one)."""
        result = result or {}
        return cls(**{name: int(result.get(name) or 0) for name in COUNT_KEYS})


COUNT_KEYS = tuple(field.name for field in fields(Counts))
"""The result document's counts (top-level keys)."""


def counts(session: Session, ids: Sequence[int]) -> dict[int, Counts]:
    """Each implementation's counts, read from its result without the rest of it (the
    signatures), in one query."""
    if not ids:
        return {}
    columns = [AddedImplementation.result[name].as_integer() for name in COUNT_KEYS]
    rows = session.execute(
        select(AddedImplementation.id, *columns).where(AddedImplementation.id.in_(ids))
    ).all()
    return {row[0]: Counts(*(int(value or 0) for value in row[1:])) for row in rows}


def find(session: Session, exercise: Exercise, added_id: int) -> AddedImplementation | None:
    """Implementation ``added_id`` when it belongs to ``exercise``."""
    row = session.get(AddedImplementation, added_id)
    return row if row is not None and row.exercise_id == exercise.id else None


def result_of(session: Session, row: AddedImplementation) -> dict[str, Any] | None:
    """The check's result document of ``row`` (deferred: read here)."""
    value: dict[str, Any] | None = session.scalar(
        select(AddedImplementation.result).where(AddedImplementation.id == row.id)
    )
    return value


def set_active(
    session: Session, exercise: Exercise, actor: User, row: AddedImplementation, active: bool
) -> bool:
    """Use ``row`` in diagnoses (``active``) or leave it out; False when it already was."""
    if row.active == active:
        return False
    row.active = active
    _audit(session, actor, exercise, row, "library.activate" if active else "library.deactivate")
    return True


def delete(session: Session, exercise: Exercise, actor: User, row: AddedImplementation) -> None:
    """Remove ``row`` from the library (the audit log keeps its name and source)."""
    _audit(session, actor, exercise, row, "library.delete", name=row.name, source=row.source)
    session.delete(row)
    session.flush()


def check_again(
    session: Session,
    exercise: Exercise,
    actor: User,
    row: AddedImplementation,
    sender: Dispatcher,
    now: datetime | None = None,
) -> bool:
    """Queue ``row``'s check again (sent after the commit): after a failure, against the
    exercise's current version, or when its task was lost; False while a check is under
    way."""
    if row.state == AddedState.CHECKING and not stuck(row, now):
        return False
    row.state = AddedState.CHECKING
    row.problem = None
    row.task_id = None
    row.result = _queued(now)
    _audit(session, actor, exercise, row, "library.check")
    sender.dispatch(session, CHECK_ADDED_TASK, [row.id])
    return True


def _queued(now: datetime | None = None) -> dict[str, Any]:
    """The result document of a check that waits: when it was queued."""
    return {"queued_at": (now or utcnow()).isoformat()}


def stuck(row: AddedImplementation, now: datetime | None = None) -> bool:
    """True for a check that has waited so long that its task must have been lost (its
    result, while it waits, holds when it was queued)."""
    if row.state != AddedState.CHECKING:
        return False
    queued = (row.result or {}).get("queued_at")
    since = datetime.fromisoformat(queued) if isinstance(queued, str) else row.created_at
    return aware(since) < (now or utcnow()) - STUCK_AFTER


def stale(row: AddedImplementation, exercise: Exercise) -> bool:
    """True when ``row`` was checked against another version than the exercise's
    current one (its caught trees may have changed)."""
    return row.state != AddedState.CHECKING and row.version_id != exercise.current_version_id


def mark_sent(session: Session, added_id: int, task_id: str) -> None:
    """Note the task id of a queued check's message."""
    session.execute(
        update(AddedImplementation)
        .where(
            AddedImplementation.id == added_id,
            AddedImplementation.state == AddedState.CHECKING,
        )
        .values(task_id=task_id)
    )


def _audit(
    session: Session,
    actor: User,
    exercise: Exercise,
    row: AddedImplementation,
    action: str,
    **details: Any,
) -> None:
    audit.record(
        session,
        actor,
        exercise.course_id,
        action,
        exercise_id=exercise.id,
        implementation=row.id,
        stem=row.stem,
        **details,
    )


# The shipped library, as the exercise page lists it.


@lru_cache(maxsize=4)
def _library(folder: str) -> tuple[Implementation, ...]:
    return tuple(load_library(Path(folder)))


def shipped(exercises_dir: Path, rules: ExerciseModel) -> list[Implementation]:
    """The shipped wrong implementations of the exercise with ``rules`` (its algorithm,
    depth limit and pruning rule; no tree needed): the library files its hidden trees
    must catch."""
    library = _library(str(exercises_dir / LIBRARY_FOLDER))
    return [implementation for implementation in library if implementation.is_wrong_for(rules)]


__all__ = [
    "COUNT_KEYS",
    "Counts",
    "Draft",
    "SubmissionRefused",
    "add",
    "check_again",
    "compile_problem",
    "counts",
    "delete",
    "filled_from_header",
    "find",
    "implementations",
    "mark_sent",
    "problems",
    "read_upload",
    "result_of",
    "set_active",
    "shipped",
    "stale",
    "stuck",
]
