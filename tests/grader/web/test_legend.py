"""The verdict legend of a submission page speaks of the exercise's own search."""

from __future__ import annotations

from grader.config import Settings
from grader.web.submission_view import verdict_words
from reference.exercises import load_catalog

CATALOG = load_catalog(Settings().exercises_dir)


def test_a_depth_limited_minimax_legend_never_speaks_of_pruning() -> None:
    words = verdict_words(CATALOG.get("tictactoe-depth2-heuristic"))
    text = " ".join(words.values())
    assert "prune" not in text and "alpha-beta" not in text
    assert "depth limit" in text


def test_an_alphabeta_legend_speaks_of_pruning_and_windows() -> None:
    words = verdict_words(CATALOG.get("aima-fig5.2-alphabeta"))
    assert "prunes" in words["extra"]
    assert "alpha-beta window" in words["wrong_bounds"]
    assert set(words) >= {"ok", "pruned", "extra", "missed", "wrong_value", "not_observed"}
