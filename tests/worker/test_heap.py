"""A grading process settles its heap (worker.heap) after gradings 1, 2, 4, 8, ... and then
every SETTLE_AT_MOST gradings: the collector no longer walks what it keeps for good."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from worker import heap


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(heap, "_graded", 0)
    monkeypatch.setattr(heap, "_next", 1)
    yield
    gc.unfreeze()


def test_it_settles_after_gradings_in_doubling_steps_then_at_most_every_so_many(
    fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(heap, "SETTLE_AT_MOST", 16)
    settled = [n for n in range(1, 101) if heap.settle_after_grading()]
    assert settled == [1, 2, 4, 8, 16, 32, 48, 64, 80, 96]


def test_what_the_process_holds_is_frozen_and_still_freed_when_dropped(fresh: None) -> None:
    kept: list[list[int]] = [[] for _ in range(1000)]  # tracked by the collector
    gc.unfreeze()
    assert heap.settle_after_grading()
    assert gc.get_freeze_count() >= len(kept)
    frozen = gc.get_freeze_count()
    del kept  # reference counting frees frozen objects as it frees any other
    assert gc.get_freeze_count() <= frozen - 1000
