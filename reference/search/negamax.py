"""Negamax, with and without alpha-beta: one rule for both players, values for the mover.

A node's value is from the point of view of the player to move there; a child's value is
negated when the turn passes to the other player. A leaf has no player to move: it counts
as the opponent of its parent (as MAX for a tree that is a single leaf).
"""

from __future__ import annotations

import math

from reference.search.engine import Frame, SearchEngine
from reference.tree import Kind, Node, Number


def mover(node: Node, parent: Node | None) -> Kind:
    """The player to move at ``node``: its own kind, or for a leaf, its parent's opponent."""
    if not node.is_leaf:
        return node.kind
    if parent is None:
        return Kind.MAX
    return Kind.MIN if parent.kind is Kind.MAX else Kind.MAX


def sign(kind: Kind) -> int:
    """+1 for MAX, -1 for MIN: turns a value from MAX's view into the mover's and back."""
    return 1 if kind is Kind.MAX else -1


def _turn_passes(frame: Frame, child: Node) -> bool:
    return mover(child, frame.node) is not frame.node.kind


class Negamax(SearchEngine):
    """Negamax: every node maximises the negated values of its children."""

    name = "negamax"
    summary = "NEGAMAX: max over children of -value, values for the player to move"

    def start(self, frame: Frame) -> None:
        frame.value = -math.inf

    def back_up(self, frame: Frame, child_value: Number) -> None:
        assert frame.child is not None
        if _turn_passes(frame, frame.child):
            child_value = -child_value
        if child_value > frame.value:
            frame.value = child_value
            frame.best = frame.edge.action

    def score(self, node: Node, value: Number, parent: Frame | None) -> Number:
        return sign(mover(node, None if parent is None else parent.node)) * value


class NegamaxAlphaBeta(Negamax):
    """Negamax with alpha-beta pruning: a child is searched with the window (-beta, -alpha)."""

    name = "negamax-alphabeta"
    summary = "NEGAMAX with alpha-beta, pruning on v >= beta (or strictly)"

    def root_window(self, root: Node) -> tuple[Number | None, Number | None]:
        return -math.inf, math.inf

    def child_window(self, frame: Frame, child: Node) -> tuple[Number | None, Number | None]:
        assert frame.alpha is not None and frame.beta is not None
        if _turn_passes(frame, child):
            return -frame.beta, -frame.alpha
        return frame.alpha, frame.beta

    def cutoff(self, frame: Frame) -> tuple[str, Number] | None:
        assert frame.beta is not None
        if frame.value > frame.beta or (
            self.options.prune_on_equality and frame.value == frame.beta
        ):
            return ("v >= beta" if self.options.prune_on_equality else "v > beta"), frame.beta
        return None

    def narrow(self, frame: Frame) -> None:
        assert frame.alpha is not None
        frame.alpha = max(frame.alpha, frame.value)
