"""Expectimax (MAX and CHANCE nodes) and expectiminimax (MAX, MIN and CHANCE nodes)."""

from __future__ import annotations

from reference.search.engine import Frame
from reference.search.minimax import Minimax
from reference.tree import Kind, Number


class Expectiminimax(Minimax):
    """Minimax where a CHANCE node is worth the probability-weighted sum of its children."""

    name = "expectiminimax"
    summary = "EXPECTIMINIMAX: MAX, MIN and CHANCE nodes"
    kinds = frozenset({Kind.MAX, Kind.MIN, Kind.CHANCE})

    def start(self, frame: Frame) -> None:
        if frame.node.kind is Kind.CHANCE:
            frame.value = 0
        else:
            super().start(frame)

    def back_up(self, frame: Frame, child_value: Number) -> None:
        if frame.node.kind is Kind.CHANCE:
            probability = frame.edge.probability
            assert probability is not None
            frame.value += probability * child_value
        else:
            super().back_up(frame, child_value)


class Expectimax(Expectiminimax):
    """Expectimax: the opponent is chance, so the tree has MAX and CHANCE nodes only."""

    name = "expectimax"
    summary = "EXPECTIMAX: MAX and CHANCE nodes"
    kinds = frozenset({Kind.MAX, Kind.CHANCE})
