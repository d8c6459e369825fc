"""Running the implementation library's trusted code in process, and judging it.

This is for the course's own implementations only (the correct and wrong solutions in
``exercises/implementations``): nothing here isolates, limits or distrusts the code it
runs. Students' code goes through the sandbox in ``worker``, whose harness records the
same things with a full trace; :func:`reference_judge` is the simple judge that hidden-tree
selection and the library's tests use until (and alongside) that harness.

An implementation is judged against the reference search of the exercise: it diverges
when it evaluates a different sequence of leaves (or cut-off nodes), when one of its entry
functions returns a value that does not match the reference's (a value outside the
reference's alpha-beta window need only fall on the same side of it, so fail-hard and
fail-soft both pass), when its root value or decision differs, or when it raises.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from types import CodeType
from typing import Any, Literal, NamedTuple

from reference.algorithms import ALGORITHMS, call_decision, find_decision
from reference.caching import IdentityCache
from reference.exercises.model import Exercise
from reference.search import SearchResult, search
from reference.search.negamax import mover
from reference.tree import Kind, Node, Number, Tree

Judge = Callable[[str, Tree], bool]
"""``fails(implementation_source, tree)``: True when the implementation is caught on ``tree``."""

CALLS_PER_NODE = 128
"""The most game calls a trusted run may make per node of its tree (a correct search makes
four or five): a wrong implementation that searches a child twice costs twice as much per
level, and on a deep tree would run for minutes. Past it, the run stops as failed: it asked
about some state more often than any correct search does. On trees of depth 6 or less
(the shipped policies' are 5 at most) the library's worst makes 45 a node."""
CALLS_FLOOR = 1_000
"""Game calls every trusted run may make whatever its tree's size."""

JUDGED_TREES_KEPT = 64
"""The trees whose reference search a :func:`reference_judge` keeps."""

COMPILED_KEPT = 256
"""Compiled library sources kept (a library holds about a hundred files)."""
ROLE_BY_KIND = {Kind.MAX: 0, Kind.MIN: 1, Kind.CHANCE: -1, Kind.LEAF: 0}
"""Which entry point searches a node of each kind (a CHANCE node: the last one)."""


class _State:
    """A handle on a node; the implementation never sees the node itself."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _State) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return "<state>"


class Seen(NamedTuple):
    """One thing the implementation did: scored a node, called an entry function on it
    (with the window and depth it was given, where the algorithm has them), or returned
    from that call (with the value, None when it was not a number)."""

    what: Literal["evaluate", "call", "return"]
    node: str
    value: Number | None = None
    alpha: Number | None = None
    beta: Number | None = None
    depth: int | None = None


class TreeGame:
    """An aima-python style game over a :class:`Tree` that notes what it is asked."""

    def __init__(self, tree: Tree, max_calls: int | None = None) -> None:
        self.tree = tree
        self.seen: list[Seen] = []
        self.last: str = tree.root.name
        self.calls = 0
        self.max_calls = max_calls

    def _node(self, state: object) -> Node:
        if not isinstance(state, _State) or state.name not in self.tree:
            raise TypeError("not a state of this game")
        self.calls += 1
        if self.max_calls is not None and self.calls > self.max_calls:
            raise TooManyCalls(self.max_calls)
        self.last = state.name
        return self.tree[state.name]

    def actions(self, state: object) -> list[str]:
        return [edge.action for edge in self._node(state).edges]

    def result(self, state: object, action: str) -> _State:
        for edge in self._node(state).edges:
            if edge.action == action:
                return _State(edge.child)
        raise ValueError(f"{action!r} is not an action in this state")

    def successors(self, state: object) -> list[tuple[str, _State]]:
        return [(edge.action, _State(edge.child)) for edge in self._node(state).edges]

    def terminal_test(self, state: object) -> bool:
        return self._node(state).is_leaf

    def to_move(self, state: object) -> str:
        node = self._node(state)
        return str(mover(node, self.tree.parent(node.name)))

    def utility(self, state: object, player: str) -> Number:
        node = self._node(state)
        if node.utility is None:
            raise ValueError("utility() of a state that is not terminal")
        self.seen.append(Seen("evaluate", node.name))
        return -node.utility if player == "MIN" else node.utility

    def eval(self, state: object) -> Number:
        node = self._node(state)
        value = node.utility if node.heuristic is None else node.heuristic
        if value is None:
            raise ValueError("this game has no evaluation for this state")
        self.seen.append(Seen("evaluate", node.name))
        return value

    def chance_outcomes(self, state: object) -> list[tuple[str, Fraction | float | None]]:
        node = self._node(state)
        if node.kind is not Kind.CHANCE:
            raise ValueError("chance_outcomes() of a state that is not a chance node")
        return [(edge.action, edge.probability) for edge in node.edges]


class TooManyCalls(BaseException):
    """A trusted run asked the game more than its tree allows. A BaseException, so that
    an implementation's own ``except Exception`` does not swallow it."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"stopped after {limit:,} game calls: it searches states again")


@dataclass(frozen=True, slots=True)
class TrustedRun:
    """What a trusted implementation did on one tree."""

    seen: tuple[Seen, ...]
    value: Number | None = None
    decision: str | None = None
    decision_style: bool = False
    error: str | None = None
    last: str | None = None
    """The node the game was last asked about (where an error happened)."""
    calls: int = 0
    """How many times it asked the game anything."""

    def evaluated(self) -> list[str]:
        """The nodes scored by utility or evaluation, in order (repeats included)."""
        return [seen.node for seen in self.seen if seen.what == "evaluate"]


def _number(value: object) -> Number | None:
    if type(value) in (int, float, Fraction):
        assert isinstance(value, int | float | Fraction)
        return None if isinstance(value, float) and math.isnan(value) else value
    return None


def _wrap(function: Callable[..., Any], seen: list[Seen], exercise: Exercise) -> Callable[..., Any]:
    windowed = ALGORITHMS[exercise.algorithm].windowed
    depth_limited = exercise.options.depth_limit is not None
    # The arguments after the state, as the sandbox's harness reads them: (alpha, beta,
    # depth), (alpha, beta) or (depth).
    at = 2 if windowed else 0

    def entry(game: Any, state: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(state, _State):
            alpha = _number(args[0]) if windowed and len(args) > 0 else None
            beta = _number(args[1]) if windowed and len(args) > 1 else None
            depth = args[at] if depth_limited and len(args) > at else None
            depth = depth if type(depth) is int else None
            seen.append(Seen("call", state.name, None, alpha, beta, depth))
        value = function(game, state, *args, **kwargs)
        if isinstance(state, _State):
            seen.append(Seen("return", state.name, _number(value)))
        return value

    return entry


@functools.lru_cache(maxsize=COMPILED_KEPT)
def _compiled(source: str) -> CodeType:
    """``source`` compiled (the library's files are run on many trees each)."""
    return compile(source, "<implementation>", "exec")


def run_trusted(source: str, exercise: Exercise, tree: Tree) -> TrustedRun:
    """Run trusted ``source`` on ``tree`` the way the grader calls a student's module; a
    run that asks the game more than :data:`CALLS_PER_NODE` times a node stops as
    failed."""
    game = TreeGame(tree, CALLS_PER_NODE * len(tree) + CALLS_FLOOR)
    namespace: dict[str, Any] = {"__name__": "implementation"}
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 10_000))
    try:
        exec(_compiled(source), namespace)
        entries = [namespace.get(name) for name in exercise.entry_points]
        functions = [entry for entry in entries if callable(entry)]
        if len(functions) == len(entries):
            for name, function in zip(exercise.entry_points, functions, strict=True):
                namespace[name] = _wrap(function, game.seen, exercise)
            value = _call_root(namespace, exercise, tree, game)
            return TrustedRun(
                tuple(game.seen), value=_number(value), last=game.last, calls=game.calls
            )
        found = find_decision(ALGORITHMS[exercise.algorithm], namespace.get)
        if found is None:
            return TrustedRun(tuple(game.seen), error="no entry points and no decision function")
        action = call_decision(*found, _State(tree.root.name), game, exercise.options.depth_limit)
        decision = action if isinstance(action, str) else None
        return TrustedRun(
            tuple(game.seen),
            decision=decision,
            decision_style=True,
            last=game.last,
            calls=game.calls,
        )
    except (Exception, TooManyCalls) as error:  # trusted code; a wrong one may well raise
        return TrustedRun(
            tuple(game.seen),
            error=f"{type(error).__name__}: {error}",
            last=game.last,
            calls=game.calls,
        )
    finally:
        sys.setrecursionlimit(old_limit)


def _call_root(namespace: dict[str, Any], exercise: Exercise, tree: Tree, game: TreeGame) -> Any:
    names = exercise.entry_points
    searched = ALGORITHMS[exercise.algorithm]
    name = names[0] if searched.negamax else names[ROLE_BY_KIND[tree.root.kind]]
    args: list[Any] = [game, _State(tree.root.name)]
    if searched.windowed:
        args += [-math.inf, math.inf]
    if exercise.options.depth_limit is not None:
        args.append(exercise.options.depth_limit)
    return namespace[name](*args)


def _close(value: Number, expected: Number) -> bool:
    if value == expected:
        return True
    return math.isclose(float(value), float(expected), rel_tol=1e-9, abs_tol=1e-9)


def _consistent(seen: Seen, reference: SearchResult) -> bool:
    values = reference.trace.values()
    if seen.value is None or seen.node not in values:
        return False
    expected = values[seen.node]
    window = reference.trace.windows().get(seen.node)
    if window is not None:
        alpha, beta = window
        # Outside the window alpha-beta only bounds the value: fail-soft returns v,
        # fail-hard the bound; both are right if they fall on the same side.
        if expected <= alpha:
            return seen.value <= alpha
        if expected >= beta:
            return seen.value >= beta
    return _close(seen.value, expected)


def best_actions(exercise: Exercise, tree: Tree) -> frozenset[str]:
    """The root's actions that lead to a child worth the root's own (true) value.

    Any of them is a correct decision, not only the reference's first one; the values are
    taken without pruning, so a pruned child's bound cannot pass for its value.
    """
    values = search(tree, "expectiminimax", exercise.options).trace.values()
    root = tree.root
    return frozenset(
        edge.action
        for edge in root.edges
        if edge.child in values and _close(values[edge.child], values[root.name])
    )


def divergence(outcome: TrustedRun, reference: SearchResult, best: frozenset[str]) -> str | None:
    """The node where ``outcome`` first parts from the reference search, or None.

    Events are taken in the order the implementation produced them. When it scores a
    different node than the reference would next, the node named is the one it scored if
    the reference never scores that node again (searched too much, or twice), and
    otherwise the one the reference expected (skipped, or searched out of order). A wrong
    root value, or a decision not among the ``best`` actions, diverges at the root.
    """
    root = reference.trace.events[0].node
    expected = reference.trace.evaluated()
    position = 0
    for seen in outcome.seen:
        if seen.what == "evaluate":
            want = expected[position] if position < len(expected) else None
            if seen.node != want:
                if want is None or seen.node not in expected[position:]:
                    return seen.node
                return want
            position += 1
        elif seen.what == "return" and not _consistent(seen, reference):
            return seen.node
    if outcome.error is not None:
        return outcome.last or root
    if position < len(expected):
        return expected[position]
    if outcome.decision_style:
        return None if outcome.decision in best else root
    if outcome.value is None or not _close(outcome.value, reference.value):
        return root
    return None


def judge_source(source: str, exercise: Exercise, tree: Tree) -> str | None:
    """Where ``source`` first diverges from the reference on ``tree`` (None: it agrees)."""
    outcome = run_trusted(source, exercise, tree)
    return divergence(outcome, exercise.reference(tree), best_actions(exercise, tree))


class ReferenceJudge:
    """A ``fails(source, tree)`` judge for an exercise built on :func:`run_trusted`, which
    counts the game calls its runs made (``calls``: the work a pool's budget counts)."""

    def __init__(self, exercise: Exercise) -> None:
        self.exercise = exercise
        self.calls = 0
        # Selection judges every implementation on one tree before it goes on to the next.
        self._kept: IdentityCache[tuple[SearchResult, frozenset[str]]] = IdentityCache(
            JUDGED_TREES_KEPT
        )

    def __call__(self, source: str, tree: Tree) -> bool:
        exercise = self.exercise
        reference, best = self._kept.get(
            lambda: (exercise.reference(tree), best_actions(exercise, tree)), tree
        )
        outcome = run_trusted(source, exercise, tree)
        self.calls += outcome.calls
        return divergence(outcome, reference, best) is not None


def reference_judge(exercise: Exercise) -> ReferenceJudge:
    """A ``fails(source, tree)`` judge for ``exercise`` built on :func:`run_trusted`."""
    return ReferenceJudge(exercise)
