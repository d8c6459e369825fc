"""A simulated student search that records Observed events the way the harness does.

:func:`simulate` plays a student's recursive search over a tree, with knobs for the usual
bugs; :func:`observed_from_trace` turns a reference trace into what a perfect student's
search would record (iteratively, for very deep or very large trees). The tests here check
that the simulation agrees with the reference engine; the feedback tests use both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import pytest

from reference.observed import Call, Observed, ObservedEvent, Return, Visit
from reference.search import Enter as RefEnter
from reference.search import Evaluate as RefEvaluate
from reference.search import Return as RefReturn
from reference.search import SearchOptions, SearchResult, search
from reference.search.negamax import mover, sign
from reference.tree import Edge, Kind, Node, Number, Tree
from reference.treefile import parse_compact

FIG52 = "MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"
TIE = "MAX[ MIN[10] MIN[10 0] ]"
DEEP_CUTOFF = "MAX[ 10 MIN[20 MAX[1 MIN[4 2]]] ]"

Algorithm = Literal[
    "minimax",
    "depth-limited-minimax",
    "alphabeta",
    "negamax",
    "negamax-alphabeta",
    "expectimax",
    "expectiminimax",
]


@dataclass(frozen=True)
class Student:
    """How the simulated student searches, bugs included.

    ``prune``: the rule the student applies ("eq": v >= beta / v <= alpha, "strict":
    v > beta / v < alpha, "never"). ``search_twice``: this node is searched a second time
    right after it returns. ``initial``: the v a MAX / MIN node starts from (±inf when
    None; negated at MIN). ``update_beta``: False makes MIN nodes never lower beta.
    ``skip``: this node is never searched. ``depth_up``: the depth argument counts up
    from 0 instead of down from the limit. ``max_lowers_beta``: MAX lowers beta instead of
    raising alpha (a classic mix-up). ``permute``: (node, positions) pairs, the order in which that
    node takes its children.
    """

    algorithm: Algorithm = "alphabeta"
    fail_hard: bool = False
    prune: Literal["eq", "strict", "never"] = "eq"
    right_to_left: bool = False
    search_twice: str | None = None
    initial: Number | None = None
    update_beta: bool = True
    skip: str | None = None
    decision_style: bool = False
    depth_limit: int | None = None
    depth_up: bool = False
    max_lowers_beta: bool = False
    permute: tuple[tuple[str, tuple[int, ...]], ...] = ()


def function_name(student: Student, kind: Kind) -> str:
    if student.algorithm.startswith("negamax"):
        return "negamax"
    return {Kind.MAX: "max_value", Kind.MIN: "min_value"}.get(kind, "exp_value")


class Simulation:
    def __init__(self, tree: Tree, student: Student) -> None:
        self.tree = tree
        self.student = student
        self.events: list[ObservedEvent] = []
        self.windowed = "alphabeta" in student.algorithm
        self.negamax = student.algorithm.startswith("negamax")
        self.best: str | None = None

    def run(self) -> Observed:
        root = self.tree.root
        value = self.value(root.name, -math.inf, math.inf, 0)
        observed = Observed(events=self.events, decision_style=self.student.decision_style)
        if self.student.decision_style:
            observed.decision = self.best
        else:
            observed.root_value = value
        return observed

    def value(self, name: str, alpha: Number, beta: Number, depth: int) -> Number:
        node = self.tree[name]
        student = self.student
        function = function_name(student, node.kind)
        limit = student.depth_limit
        if not student.decision_style:
            depth_argument = None
            if limit is not None:
                depth_argument = depth if student.depth_up else limit - depth
            self.events.append(
                Call(
                    name,
                    function,
                    alpha if self.windowed else None,
                    beta if self.windowed else None,
                    depth_argument,
                )
            )
        self.events.append(Visit(name, "terminal_test"))
        if node.is_leaf:
            self.events.append(Visit(name, "utility"))
            assert node.utility is not None
            value = self.view(node, node.utility)
        elif node.is_frontier or (limit is not None and depth >= limit):
            self.events.append(Visit(name, "eval"))
            assert node.heuristic is not None
            value = self.view(node, node.heuristic)
        elif node.kind is Kind.CHANCE:
            self.events.append(Visit(name, "chance_outcomes"))
            total: Number = 0
            for edge in self.ordered(node):
                assert edge.probability is not None
                total += edge.probability * self.value(edge.child, alpha, beta, depth + 1)
            value = total
        else:
            self.events.append(Visit(name, "actions"))
            value = self.internal(node, alpha, beta, depth)
        if not student.decision_style:
            self.events.append(Return(name, function, value))
        return value

    def view(self, node: Node, value: Number) -> Number:
        if not self.negamax:
            return value
        return sign(mover(node, self.tree.parent(node.name))) * value

    def ordered(self, node: Node) -> tuple[Edge, ...]:
        edges = node.edges[::-1] if self.student.right_to_left else node.edges
        for name, positions in self.student.permute:
            if name == node.name:
                edges = tuple(edges[i] for i in positions)
        return tuple(edge for edge in edges if edge.child != self.student.skip)

    def internal(self, node: Node, alpha: Number, beta: Number, depth: int) -> Number:
        student = self.student
        maximize = self.negamax or node.kind is Kind.MAX
        start = -math.inf if student.initial is None else student.initial
        v: Number = start if maximize else -start
        for edge in self.ordered(node):
            child = self.tree[edge.child]
            passes = self.negamax and mover(child, node) is not node.kind
            window = (-beta, -alpha) if passes else (alpha, beta)
            result = self.value(child.name, *window, depth + 1)
            if child.name == student.search_twice:
                result = self.value(child.name, *window, depth + 1)
            if passes:
                result = -result
            improved = result > v if maximize else result < v
            if improved:
                v = result
                if node is self.tree.root:
                    self.best = edge.action
            if not self.windowed:
                continue
            if maximize:
                if self.cuts(v, beta):
                    return beta if student.fail_hard else v
                if student.max_lowers_beta:
                    beta = min(beta, v)
                else:
                    alpha = max(alpha, v)
            else:
                if self.cuts(alpha, v):
                    return alpha if student.fail_hard else v
                if student.update_beta:
                    beta = min(beta, v)
        if self.windowed and student.fail_hard:
            return alpha if maximize else beta
        return v

    def cuts(self, high: Number, low: Number) -> bool:
        """Whether ``high`` >= ``low`` (eq) / ``high`` > ``low`` (strict) lets a node stop."""
        if self.student.prune == "never":
            return False
        return high > low or (self.student.prune == "eq" and high == low)


def simulate(tree: Tree, student: Student | None = None) -> Observed:
    """The events a student's search of ``tree`` records."""
    return Simulation(tree, student or Student()).run()


def observed_from_trace(result: SearchResult, function: str = "f") -> Observed:
    """What a perfect student records: the reference's own search, as harness events."""
    events: list[ObservedEvent] = []
    for event in result.trace:
        if isinstance(event, RefEnter):
            events.append(Call(event.node, function, event.alpha, event.beta))
            events.append(Visit(event.node, "terminal_test"))
        elif isinstance(event, RefEvaluate):
            events.append(Visit(event.node, "utility"))
        elif isinstance(event, RefReturn):
            events.append(Return(event.node, function, event.value))
    return Observed(events=events, root_value=result.value)


@pytest.mark.parametrize("text", [FIG52, TIE, DEEP_CUTOFF])
@pytest.mark.parametrize("on_equality", [True, False])
def test_simulated_alphabeta_visits_what_the_reference_visits(text: str, on_equality: bool) -> None:
    tree = parse_compact(text)
    reference = search(tree, "alphabeta", SearchOptions(prune_on_equality=on_equality))
    for fail_hard in (False, True):
        student = Student(fail_hard=fail_hard, prune="eq" if on_equality else "strict")
        observed = simulate(tree, student)
        assert observed.visited() == reference.trace.visited()
        assert observed.root_value == reference.value


def test_simulated_minimax_on_fig52_returns_the_textbook_values() -> None:
    observed = simulate(parse_compact(FIG52), Student("minimax"))
    returns = {e.node: e.value for e in observed.events if isinstance(e, Return)}
    assert (returns["B"], returns["C"], returns["D"], returns["A"]) == (3, 2, 2, 3)


def test_perfect_trace_replays_the_reference_visits() -> None:
    result = search(parse_compact(FIG52), "alphabeta")
    assert observed_from_trace(result).visited() == result.trace.visited()
