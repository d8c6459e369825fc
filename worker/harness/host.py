"""The trusted side of a run: holds the tree, answers game requests, records what was asked.

:class:`TreeHost` is used in process for trusted code (:mod:`worker.harness.local`) and by
the sandbox's server for student code; in both cases the recorded
:class:`~reference.observed.Observed` is built here, from requests as they arrive, so the
student's process cannot change it after the fact.
"""

from __future__ import annotations

import os
from typing import NoReturn

from reference.observed import GENERATE, VISIT_METHODS, Call, Observed, Return, Visit
from reference.search.negamax import mover
from reference.tree import Kind, Node, Number, Tree
from worker.harness.backend import Refusal
from worker.harness.results import StudentResult
from worker.harness.values import Described

REQUEST_METHODS = VISIT_METHODS | {"result", "generate"}
_LEAF, _MAX = Kind.LEAF, Kind.MAX
"""Looked up once: an enum's members are slow to look up on its class."""
_POOL_BYTES = 4096
LOOKAHEAD_METHODS = frozenset({"actions", "successors", "chance_outcomes"})
"""Requests whose answer lists a state's children: the sandbox also tells their facts."""


class ProtocolViolation(BaseException):
    """The student's side sent something no honest game client sends (a forged handle, an
    unknown method, a flood of requests).

    A BaseException, so that a student's ``except Exception`` does not swallow it; and the
    host remembers the violation anyway (:attr:`TreeHost.violation`)."""


def default_request_cap(tree: Tree) -> int:
    """Enough game calls for any reasonable search of ``tree``, several times over."""
    return 40 * len(tree) + 1000


class TreeHost:
    """Answers one run's game requests about ``tree`` under unguessable per-run handles."""

    def __init__(self, tree: Tree, *, request_cap: int | None = None) -> None:
        self.tree = tree
        self._nodes = tree.nodes
        self.observed = Observed()
        self.requests = 0
        self.violation: str | None = None
        """Set at the first protocol violation; the run is then over, whatever the student's
        code does with the exception."""
        self.request_cap = default_request_cap(tree) if request_cap is None else request_cap
        self._names: dict[str, str] = {}
        self._tokens: dict[str, str] = {}
        self.wire_names: dict[bytes, str] = {}
        """Node names by handle as the handle travels on the sandbox's wire (ASCII bytes)."""
        self._pool = b""
        self._pool_at = 0
        self._visited_at: dict[str, int] = {}
        """The count of game calls (:attr:`requests`) at each node's latest visit."""
        self._helper_values: dict[str, tuple[int, str, Described]] = {}
        """For each node with an outermost helper frame still open: the value that counts
        so far (see :meth:`helper_returned`), with its frame's start and function."""
        self.root_token = self.token(tree.root.name)
        self._handlers = {method: getattr(self, f"_{method}") for method in sorted(REQUEST_METHODS)}

    def token(self, name: str) -> str:
        """The handle of node ``name``, minted on first use."""
        token = self._tokens.get(name)
        if token is None:
            token = self._random_hex(1)
            self._tokens[name] = token
            self._names[token] = name
            self.wire_names[token.encode()] = name
        return token

    def _random_hex(self, handles: int) -> str:
        """Random hex for ``handles`` handles (16 digits each), cut from a pool the OS's
        random source fills (one system call per pool, not per handle)."""
        size = 8 * handles
        if self._pool_at + size > len(self._pool):
            self._pool = os.urandom(max(_POOL_BYTES, size))
            self._pool_at = 0
        start, self._pool_at = self._pool_at, self._pool_at + size
        return self._pool[start : start + size].hex()

    def name(self, token: str | None) -> str | None:
        """The node behind a handle the student passed to its own function (None: not ours)."""
        return None if token is None else self._names.get(token)

    def request(self, method: object, token: object, argument: object) -> object:
        """The answer to one game request; raises ProtocolViolation for a forged one."""
        return self._serve(method, self._names.get(token) if type(token) is str else None, argument)

    def record_again(self, name: str, visit: Visit | None) -> None:
        """Count and record again a request about node ``name`` that was answered before
        (the caller has the answer: the same again); ``visit``, the record of a request
        that visits the node (None: one that does not), is recorded as it is."""
        if self.violation is not None:
            raise ProtocolViolation(self.violation)
        self.requests += 1
        if self.requests > self.request_cap:
            self._violate(f"more than {self.request_cap:,} game calls")
        if visit is not None:
            self.observed.events.append(visit)
            self._visited_at[name] = self.requests

    def told(self, method: str, token: bytes) -> None:
        """Record a call (``result``, ``terminal_test`` or ``to_move``) the student's side
        answered itself from facts told in advance (see :meth:`lookahead`), its handle as
        it came on the wire; it counts and is checked like any request (nothing is
        answered: the student's side already has the answer)."""
        self._record(method, self.wire_names.get(token))

    def root_facts(self) -> list[tuple[str, bool, str]]:
        """The root's facts, as :meth:`lookahead` tells them of children."""
        root = self.tree.root
        return [(self.root_token, root.is_leaf, str(mover(root, None)))]

    def ask(
        self, method: str, token: bytes, argument: str | None
    ) -> tuple[object, list[tuple[str, bool, str]] | None]:
        """:meth:`request` for a handle as it came on the sandbox's wire; also, for a
        request that lists a state's children (``actions``, ``successors``,
        ``chance_outcomes``), the children's facts (see :meth:`lookahead`)."""
        name = self.wire_names.get(token)
        answer = self._serve(method, name, argument)
        if method in LOOKAHEAD_METHODS and type(answer) is list:
            assert name is not None
            return answer, self.lookahead(self._nodes[name])
        return answer, None

    def lookahead(self, node: Node) -> list[tuple[str, bool, str]]:
        """For each child of ``node`` (whose request has been checked), in order: its
        handle, whether it is terminal and who moves there. Facts the student's side may
        use to answer ``result``, ``terminal_test`` and ``to_move`` without a round trip;
        none of them is a value."""
        nodes, tokens = self._nodes, self._tokens
        children = [edge.child for edge in node.edges]
        fresh = [name for name in children if name not in tokens]
        if fresh:
            # One draw of random bytes for all the new handles.
            drawn = self._random_hex(len(fresh))
            names, wire_names = self._names, self.wire_names
            for i, name in enumerate(fresh):
                token = drawn[16 * i : 16 * i + 16]
                tokens[name] = token
                names[token] = name
                wire_names[token.encode()] = name
        # Who moves at a leaf child: the parent's opponent (see ``mover``), the same for
        # every child; an inner child's own kind says it (its value, read directly: an
        # enum's attributes are slow to look up).
        at_leaf = "MIN" if node.kind is _MAX else "MAX"
        facts: list[tuple[str, bool, str]] = []
        add = facts.append
        for name in children:
            kind = nodes[name].kind
            if kind is _LEAF:
                add((tokens[name], True, at_leaf))
            else:
                add((tokens[name], False, kind._value_))
        return facts

    def _serve(self, method: object, name: str | None, argument: object) -> object:
        """Check, record and answer a request about node ``name`` (None: a handle that is
        not ours)."""
        method, name = self._record(method, name)
        return self._handlers[method](self._nodes[name], argument)

    def _record(self, method: object, name: str | None) -> tuple[str, str]:
        """Check and count a request about node ``name`` and record its visit; the method
        and name, checked. A violation is remembered, whatever the student's code does
        with it."""
        if self.violation is not None:
            raise ProtocolViolation(self.violation)
        self.requests += 1
        if self.requests > self.request_cap:
            self._violate(f"more than {self.request_cap:,} game calls")
        if method not in REQUEST_METHODS:
            self._violate(f"unknown game request {str(method)[:40]!r}")
        if name is None:
            self._violate("a request named a state the game never handed out")
        assert isinstance(method, str)
        if method in VISIT_METHODS:
            self.observed.events.append(Visit(name, method))
            self._visited_at[name] = self.requests
        return method, name

    def _violate(self, message: str) -> NoReturn:
        if self.violation is None:
            self.violation = message
        raise ProtocolViolation(message)

    def _terminal_test(self, node: Node, argument: object) -> object:
        return node.is_leaf

    def _actions(self, node: Node, argument: object) -> object:
        return [edge.action for edge in node.edges]

    def _result(self, node: Node, argument: object) -> object:
        for edge in node.edges:
            if edge.action == argument:
                return self.token(edge.child)
        return Refusal(f"{str(argument)[:40]!r} is not an action in this state")

    def _generate(self, node: Node, argument: object) -> object:
        """``result`` that also records the child as generated (CS188's
        ``generateSuccessor``): a visit of the child where generating counts as reaching
        a node (see :mod:`reference.feedback.student_view`)."""
        for edge in node.edges:
            if edge.action == argument:
                self.observed.events.append(Visit(edge.child, GENERATE))
                self._visited_at[edge.child] = self.requests
                return self.token(edge.child)
        return Refusal(f"{str(argument)[:40]!r} is not a legal action in this state")

    def _successors(self, node: Node, argument: object) -> object:
        return [(edge.action, self.token(edge.child)) for edge in node.edges]

    def _utility(self, node: Node, argument: object) -> object:
        if not node.is_leaf:
            return Refusal("utility() asked of a state that is not terminal")
        assert node.utility is not None
        if argument == "MIN":
            return -node.utility
        if argument == "MAX":
            return node.utility
        self._violate("utility() for a player that is neither MAX nor MIN")

    def _to_move(self, node: Node, argument: object) -> object:
        return str(mover(node, self.tree.parent(node.name)))

    def _eval(self, node: Node, argument: object) -> object:
        if node.heuristic is not None:
            return node.heuristic
        if node.is_leaf:
            return node.utility
        return Refusal("this game has no evaluation for this state")

    def _chance_outcomes(self, node: Node, argument: object) -> object:
        if node.kind is not Kind.CHANCE:
            return Refusal("chance_outcomes() asked of a state that is not a chance node")
        return [(edge.action, edge.probability) for edge in node.edges]

    def note_call(
        self,
        function: str,
        token: str | None,
        alpha: Described | None,
        beta: Described | None,
        depth: Described | None,
        line: int | None = None,
    ) -> None:
        """Record an entry-function call on a state of ours (calls on anything else are
        the student's own business and are not recorded)."""
        name = None if token is None else self._names.get(token)
        if name is not None:
            self.observed.events.append(call_event(name, function, alpha, beta, depth, line))

    def note_return(
        self, function: str, token: str | None, value: Described, line: int | None = None
    ) -> None:
        """Record what an entry function returned for a state of ours."""
        name = None if token is None else self._names.get(token)
        if name is not None:
            self.observed.events.append(return_event(name, function, value, line))

    def note_helper(
        self, function: str, token: str, start: int, value: Described | None, outermost: bool
    ) -> None:
        """:meth:`helper_returned` for a state's handle (one that is not ours is ignored)."""
        name = self._names.get(token)
        if name is not None:
            self.helper_returned(name, function, start, value, outermost)

    def helper_returned(
        self, name: str, function: str, start: int, value: Described | None, outermost: bool
    ) -> None:
        """A function of the student's file (not an entry function: one the harness follows
        where none is wrapped, see :mod:`worker.harness.observer`) was called on node
        ``name`` after ``start`` game calls and returned ``value`` (None: not a number);
        ``outermost``: no other function of the file was open on the same state.

        Its return counts as the node's value only if it is a number and the game was asked
        about the node itself during the call (a visit of it since game call ``start``): a
        helper of its parent's that is handed the state (``chance_node(state, action)``)
        asks about the child, not the node. Of the calls open on one node, the outermost
        that counts wins (a ``value(state)`` that dispatches to ``max_value(state)``, a
        ``probability(state)`` inside ``value(state)``; an agent's ``getAction`` returns an
        action, so the value of the helper inside it stands); it is recorded as the node's
        :class:`~reference.observed.Return` when the outermost call returns, where the
        search leaves the node. The root's first such value is the search's root value
        (:attr:`Observed.root_value`) when the search itself returned none."""
        pending = self._helper_values.get(name)
        if (
            value is not None
            and value[1] is None
            and self._visited_at.get(name, -1) > start
            # Frames on one node are nested or apart: a frame that returns after another and
            # began no later holds it. Of two apart, the first stands.
            and (pending is None or start <= pending[0])
        ):
            pending = self._helper_values[name] = (start, function, value)
        if outermost and pending is not None:
            del self._helper_values[name]
            _, counted, returned = pending
            self.observed.events.append(return_event(name, counted, returned))
            if name == self.tree.root.name and self.observed.root_value is None:
                self.observed.root_value = returned[0]


def call_event(
    name: str,
    function: str,
    alpha: Described | None,
    beta: Described | None,
    depth: Described | None,
    line: int | None = None,
) -> Call:
    """The record of an entry function called on node ``name`` with these bounds / depth,
    from ``line`` of the student's file."""
    return Call(name, function, _number(alpha), _number(beta), _depth(depth), line)


def return_event(name: str, function: str, value: Described, line: int | None = None) -> Return:
    """The record of an entry function called on node ``name`` (from ``line``) returning
    ``value``."""
    number, problem, shown = value
    return Return(name, function, number, problem, shown, line)


def _number(value: Described | None) -> Number | None:
    return None if value is None else value[0]


def _depth(value: Described | None) -> int | None:
    if value is None or type(value[0]) is not int:
        return None
    return value[0]


def conclude(observed: Observed, result: StudentResult) -> None:
    """Copy the top-level answer of the student's search into ``observed``."""
    observed.decision = result.decision
    observed.decision_style = result.decision_style
    if result.evaluations is not None:
        observed.claimed_evaluations = result.evaluations[0]
    if result.value is not None:
        observed.root_value, observed.root_problem, _ = result.value
