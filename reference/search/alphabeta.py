"""Alpha-beta search as in AIMA's pseudocode (fail-soft: it returns v, not a clipped bound)."""

from __future__ import annotations

import math

from reference.search.engine import Frame, SearchError, SearchOptions
from reference.search.minimax import Minimax
from reference.tree import Kind, Node, Number


class AlphaBeta(Minimax):
    """Minimax with alpha-beta pruning; the pruning rule is ``options.prune_on_equality``."""

    name = "alphabeta"
    summary = "AIMA's ALPHA-BETA-SEARCH, pruning on v >= beta / v <= alpha (or strictly)"

    def root_window(self, root: Node) -> tuple[Number | None, Number | None]:
        return -math.inf, math.inf

    def child_window(self, frame: Frame, child: Node) -> tuple[Number | None, Number | None]:
        return frame.alpha, frame.beta

    def cutoff(self, frame: Frame) -> tuple[str, Number] | None:
        v, alpha, beta = frame.value, frame.alpha, frame.beta
        assert alpha is not None and beta is not None
        on_equality = self.options.prune_on_equality
        if frame.node.kind is Kind.MAX:
            if v > beta or (on_equality and v == beta):
                return ("v >= beta" if on_equality else "v > beta"), beta
        elif v < alpha or (on_equality and v == alpha):
            return ("v <= alpha" if on_equality else "v < alpha"), alpha
        return None

    def narrow(self, frame: Frame) -> None:
        assert frame.alpha is not None and frame.beta is not None
        if frame.node.kind is Kind.MAX:
            frame.alpha = max(frame.alpha, frame.value)
        else:
            frame.beta = min(frame.beta, frame.value)


class DepthLimitedAlphaBeta(AlphaBeta):
    """Alpha-beta that stops at ``depth_limit`` and scores the nodes there by their
    heuristic."""

    name = "depth-limited-alphabeta"
    summary = "alpha-beta cut off at a depth, with the heuristic at the cut-off"

    def __init__(self, options: SearchOptions | None = None) -> None:
        super().__init__(options)
        if self.options.depth_limit is None:
            raise SearchError("depth-limited-alphabeta needs a depth limit")
