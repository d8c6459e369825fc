"""Minimax (AIMA's MAX-VALUE / MIN-VALUE) and its depth-limited form."""

from __future__ import annotations

import math

from reference.search.engine import Frame, SearchEngine, SearchError, SearchOptions, better
from reference.tree import Kind, Number


class Minimax(SearchEngine):
    """Plain minimax: every node is searched; MAX takes the largest value, MIN the smallest."""

    name = "minimax"
    summary = "MAX-VALUE / MIN-VALUE over the whole tree"

    def start(self, frame: Frame) -> None:
        frame.value = -math.inf if frame.node.kind is Kind.MAX else math.inf

    def back_up(self, frame: Frame, child_value: Number) -> None:
        if better(frame.node.kind, child_value, frame.value):
            frame.value = child_value
            frame.best = frame.edge.action


class DepthLimitedMinimax(Minimax):
    """Minimax that stops at ``depth_limit`` and scores the nodes there by their heuristic."""

    name = "depth-limited-minimax"
    summary = "minimax cut off at a depth, with the heuristic at the cut-off"

    def __init__(self, options: SearchOptions | None = None) -> None:
        super().__init__(options)
        if self.options.depth_limit is None:
            raise SearchError("depth-limited-minimax needs a depth limit")
