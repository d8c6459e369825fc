"""The kinds of durable job: each one complete, and the reaper walking them all."""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from dataclasses import replace

import pytest
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.services import jobs
from grader.services.jobs import KINDS, JobKind, reap
from grader.services.tasks import GRADE_TASK, TASK_QUEUES
from grader.services.unit_of_work import after_commit


def test_the_registry_holds_every_kind_of_job() -> None:
    assert set(KINDS) == {
        "worker.tasks.grade_run",
        "worker.tasks.analyse_version",
        "worker.tasks.check_added_implementation",
        "worker.tasks.deliver",
        "worker.tasks.read_lineitem_due",
    }


@pytest.mark.parametrize("kind", KINDS.values(), ids=list(KINDS))
def test_every_kind_is_reaped_or_says_what_finds_its_lost_tasks(kind: JobKind) -> None:
    assert (kind.stuck is None) != (not kind.unreaped_because), kind.name
    if kind.stuck is None:
        assert len(kind.unreaped_because.split()) >= 5, "say what finds them instead"


@pytest.mark.parametrize("kind", KINDS.values(), ids=list(KINDS))
def test_every_kind_has_a_queue_and_eager_work_that_imports(kind: JobKind) -> None:
    assert kind.queue == TASK_QUEUES[kind.name]
    work = kind.work()
    assert callable(work)
    # Called as work(database, settings, id): three positional parameters, no more required.
    parameters = list(inspect.signature(work).parameters.values())
    positional = [p for p in parameters if p.kind == p.POSITIONAL_OR_KEYWORD]
    assert len(positional) >= 3
    required = [p for p in parameters[3:] if p.default is p.empty and p.kind != p.VAR_KEYWORD]
    assert required == [], f"{kind.eager} needs more than (database, settings, id)"


def test_a_kind_without_a_finder_or_a_reason_is_refused() -> None:
    with pytest.raises(ValueError, match="finder, or why"):
        JobKind("worker.tasks.nothing", eager="worker.nothing:nothing")
    with pytest.raises(ValueError, match="registered twice"):
        jobs.register(KINDS[GRADE_TASK])


class _Recorder:
    def __init__(self) -> None:
        self.sent: list[tuple[str, list[int]]] = []

    def dispatch(self, session: Session, kind: str, ids: Iterable[int]) -> None:
        ids = list(ids)
        if ids:
            after_commit(session, lambda: self.sent.append((kind, ids)))


def test_the_reaper_walks_every_finder_and_sends_after_each_commit(
    monkeypatch: pytest.MonkeyPatch, settings: Settings, database: Database
) -> None:
    found = {name: [index + 1] for index, name in enumerate(KINDS)}
    for name, kind in list(KINDS.items()):
        if kind.stuck is not None:

            def stuck(_session: Session, _settings: Settings, name: str = name) -> list[int]:
                return found[name]

            monkeypatch.setitem(KINDS, name, replace(kind, stuck=stuck))
    recorder = _Recorder()

    reaped = reap(database, settings, recorder)

    finders = [name for name, kind in KINDS.items() if kind.stuck is not None]
    assert reaped == len(finders)
    assert recorder.sent == [(name, found[name]) for name in finders]
