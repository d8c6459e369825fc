"""Expanding a game's rules into its game tree."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Generic

from reference import progress
from reference.allocation import gc_paused
from reference.games.base import Game, S
from reference.naming import ROOT_NAME, child_names
from reference.tree import Edge, Kind, Node, Number, Tree

DEFAULT_MAX_NODES = 1_000_000


@dataclass(frozen=True, slots=True)
class _Facts(Generic[S]):
    """What the rules say about one state; computed once per distinct state."""

    kind: Kind
    label: str
    utility: int | None
    heuristic: Number | None
    actions: tuple[str, ...]  # the action labels, in order
    children: tuple[S, ...]  # the resulting states, in the same order


class TooManyNodes(ValueError):
    """The game tree grows past the number of nodes it may have."""


def expand(
    game: Game[S, Any],
    *,
    max_depth: int | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    dedupe_children: bool = True,
) -> Tree:
    """The game tree of ``game`` from its initial state.

    Terminal states become leaves carrying their utility; other states become MAX or MIN
    nodes with one child per action, in the order of ``game.actions``, each edge labelled
    by ``game.action_label``. With ``dedupe_children``, a child whose state equals an
    earlier sibling's is dropped (per parent only: equal states elsewhere in the tree stay).
    When the game has a heuristic every internal node carries it; with ``max_depth``,
    non-terminal states at that depth become frontier nodes (a heuristic and no children).
    Nodes are named as in the textbook (A; B, C, ...; B1, B2; B1.1 ...) and labelled with
    ``game.describe``.

    Raises ValueError when the tree would have more than ``max_nodes`` nodes, or when
    ``max_depth`` cuts the tree of a game that has no heuristic.
    """
    if max_depth is not None and max_depth < 0:
        raise ValueError(f"max_depth must be at least 0, got {max_depth}")
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, got {max_nodes}")
    with gc_paused():
        facts_of = _FactsCache(game, dedupe_children)
        limit = math.inf if max_depth is None else max_depth
        nodes: list[Node] = []
        count = 1
        # Counted for a listener every EVERY nodes (tic-tac-toe takes seconds to expand).
        tell_at = progress.EVERY if progress.heard() else math.inf
        # Iterative on purpose: game trees can be deeper than Python's recursion limit. This
        # loop runs once per node (half a million for tic-tac-toe), so it stays lean.
        stack: list[tuple[str, S, int]] = [(ROOT_NAME, game.initial_state(), 0)]
        while stack:
            name, state, depth = stack.pop()
            facts = facts_of(state)
            if facts.kind is Kind.LEAF:
                nodes.append(Node(name, Kind.LEAF, (), facts.utility, None, facts.label))
                continue
            if depth >= limit:
                if facts.heuristic is None:
                    raise ValueError(
                        f"the game {game.name or type(game).__name__!r} has no heuristic, "
                        "so its tree cannot be cut at a maximum depth"
                    )
                nodes.append(Node(name, facts.kind, (), None, facts.heuristic, facts.label))
                continue
            names = child_names(name, len(facts.children), parent_is_root=depth == 0)
            count += len(names)
            if count > max_nodes:
                raise TooManyNodes(
                    f"the game tree has more than {max_nodes:,} nodes (the limit); "
                    "set a maximum depth or raise the limit"
                )
            if count >= tell_at:
                progress.count(count)
                tell_at += progress.EVERY
            edges = tuple(map(Edge, facts.actions, names))
            nodes.append(Node(name, facts.kind, edges, None, facts.heuristic, facts.label))
            stack.extend(zip(names, facts.children, repeat(depth + 1)))
        return Tree(ROOT_NAME, nodes)


class _FactsCache(Generic[S]):
    """Asks the rules about each distinct state once; trees repeat states a lot."""

    def __init__(self, game: Game[S, Any], dedupe_children: bool) -> None:
        self._game = game
        self._dedupe = dedupe_children
        self._facts: dict[S, _Facts[S]] = {}

    def __call__(self, state: S) -> _Facts[S]:
        facts = self._facts.get(state)
        if facts is None:
            facts = self._facts[state] = self._ask(state)
        return facts

    def _ask(self, state: S) -> _Facts[S]:
        game = self._game
        label = game.describe(state)
        if game.is_terminal(state):
            return _Facts(Kind.LEAF, label, game.utility(state), None, (), ())
        moves: list[tuple[str, S]] = []
        seen: set[S] = set()
        for action in game.actions(state):
            after = game.result(state, action)
            if self._dedupe:
                if after in seen:
                    continue
                seen.add(after)
            moves.append((game.action_label(state, action), after))
        if not moves:
            raise ValueError(f"the non-terminal state {label!r} has no legal actions")
        actions, children = zip(*moves, strict=True)
        if len(set(actions)) != len(actions):
            raise ValueError(f"two actions in state {label!r} have the same label")
        kind = game.to_move(state)
        return _Facts(kind, label, None, game.evaluate(state), actions, children)
