"""A process's ready draws of hidden trees (worker.trees): taken once each, made ahead,
named at random under the exercise version, the same trees for the same name."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.config import Settings
from reference.exercises.loader import load_exercise
from reference.exercises.model import Exercise
from reference.treefile.compact import render_compact
from worker import trees as trees_module
from worker.trees import STOCK_SIZE, Draw, Prepared, prepared

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = Settings(env="development")


@pytest.fixture(scope="module")
def exercise() -> Exercise:
    return load_exercise(ROOT / "exercises" / "aima-fig5.2-alphabeta")


@pytest.fixture
def ready(exercise: Exercise) -> Prepared:
    """A fresh ``Prepared`` of the exercise (none of the cached one's ready draws)."""
    kept = prepared(exercise, SETTINGS.hidden_tree_key, SETTINGS.exercises_dir)
    return Prepared(exercise, kept.key, kept.public, kept.library)


def _shapes(draw: Draw) -> list[str]:
    return [render_compact(case.tree) for case in draw.hidden]


def test_the_same_name_draws_the_same_trees_and_another_name_others(ready: Prepared) -> None:
    first = ready.draw("version-x/draw-1")
    assert _shapes(first) == _shapes(ready.draw("version-x/draw-1"))
    assert _shapes(first) != _shapes(ready.draw("version-x/draw-2"))
    assert len(first.hidden) == ready.exercise.hidden.count
    assert all(case.hidden and case.reference is not None for case in first.hidden)


def test_a_draw_is_made_only_when_none_is_ready(
    ready: Prepared, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert ready.stock_up("version-x") == STOCK_SIZE
    assert ready.ready == STOCK_SIZE
    made: list[str] = []
    real = Prepared.draw

    def counted(self: Prepared, name: str) -> Draw:
        made.append(name)
        return real(self, name)

    monkeypatch.setattr(Prepared, "draw", counted)
    taken = [ready.take("version-x") for _ in range(STOCK_SIZE)]
    assert made == [] and ready.ready == 0
    extra = ready.take("version-x")
    assert made == [extra.name]
    assert ready.stock_up("version-x") == STOCK_SIZE and len(made) == 1 + STOCK_SIZE
    assert all(draw.name.startswith("version-x/draw-") for draw in [*taken, extra])


def test_no_draw_is_taken_twice(ready: Prepared) -> None:
    names = []
    for _ in range(12):
        ready.stock_up("version-x", size=1)
        names.append(ready.take("version-x").name)
    assert len(set(names)) == len(names)


def test_an_older_versions_draws_are_never_taken(ready: Prepared) -> None:
    ready.stock_up("version-old")
    taken = ready.take("version-new")
    assert taken.name.startswith("version-new/draw-")
    ready.stock_up("version-new")
    assert ready.ready == STOCK_SIZE
    assert all(ready.take("version-new").name.startswith("version-new/") for _ in range(2))


def test_draw_names_are_not_foreseeable() -> None:
    names = {trees_module.draw_name("version-x") for _ in range(200)}
    assert len(names) == 200
    assert all(len(name.rsplit("-", 1)[1]) == 24 for name in names)  # 96 random bits
