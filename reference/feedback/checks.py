"""Everything one judgement needs, built once, and the checks of one node's bounds and value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reference.feedback.geometry import Geometry
from reference.feedback.reference_view import ReferenceView, Unvisited
from reference.feedback.screen import wrong_bounds, wrong_values
from reference.feedback.student_view import StudentView, read_student
from reference.feedback.tree_facts import tree_facts
from reference.feedback.values import Allowed, allowed_values, same
from reference.feedback.viewpoint import in_max_view
from reference.observed import Observed, ValueProblem
from reference.search import SearchResult
from reference.tree import Number, Tree
from reference.values import format_value


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A difference at one node: short expected / actual texts and a sentence."""

    expected: str
    actual: str
    message: str
    bound: Literal["alpha", "beta", "depth"] | None = None
    """Of a received window or depth: the first of alpha, beta and depth that differs."""


def window_text(alpha: Number | None, beta: Number | None) -> str:
    """``alpha = 3, beta = +inf``."""
    return f"alpha = {format_value(alpha)}, beta = {format_value(beta)}"


class Context:
    """A tree, its reference search and the student's observed search, indexed."""

    def __init__(self, tree: Tree, reference: SearchResult, observed: Observed) -> None:
        facts = tree_facts(tree, reference)
        # A decision-style search may score states for MIN, where MIN moves at the root.
        observed = in_max_view(observed, tree, facts.max_values, negamax=facts.negamax)
        self.facts = facts
        self.tree = tree
        self.reference = reference
        self.observed = observed
        self.options = reference.options
        self.geometry: Geometry = facts.geometry
        self.ref: ReferenceView = facts.ref
        self.student: StudentView = read_student(observed, self.geometry)
        self.negamax = facts.negamax
        self.max_values = facts.max_values
        """True values from MAX's point of view."""
        self.values = facts.values
        """True values as the algorithm returns them (the mover's view in negamax)."""
        self.depth_counts_down = self._depth_counts_down()
        self.wrong_values = wrong_values(
            self.geometry.names,
            self.student.returned_in_preorder,
            self.student.has_returned_in_preorder,
            facts.allowed_in_preorder,
            facts.exact_in_preorder,
        )
        """The nodes :meth:`value_mismatch` finds a mismatch at."""
        self.wrong_bounds: set[str] = set()  # without windows or a depth limit, any will do
        if self.ref.windows or self.options.depth_limit is not None:
            self.wrong_bounds = wrong_bounds(
                self.student.call_order,
                self.student.call_in_preorder,
                self.geometry.names,
                self.student.events,
                facts.windows_in_preorder,
                self.expected_depth,
            )
        """The nodes :meth:`bounds_mismatch` finds a mismatch at."""
        self.unasked = self._unasked()
        """The nodes the reference scores that the student's search visited without asking
        their value, each with the request the reference makes there."""
        self.cut_at: dict[str, tuple[str, str]] = {}
        """The cut-off of each child cut off, as :mod:`reference.feedback.explain` tells it."""
        self.pruned_rest: dict[Unvisited | None, str] = {}
        """The end of a pruned node's sentence, after its name, by the ``Unvisited`` that
        says why (see :func:`reference.feedback.explain.pruned_reason`)."""

    def _unasked(self) -> dict[str, str]:
        names = self.geometry.names
        visited, asked = self.student.visited_in_preorder, self.student.asked_in_preorder
        unasked: dict[str, str] = {}
        for at, method in zip(self.ref.evaluated_order, self.ref.evaluated_requests, strict=True):
            if visited[at] and not asked[at]:
                unasked[names[at]] = method
        return unasked

    def unasked_message(self, name: str) -> str:
        """The sentence for a node visited without asking its value."""
        method = self.unasked[name]
        where = ""
        limit = self.options.depth_limit
        if method == "eval" and limit is not None and self.geometry.depth[name] >= limit:
            where = " (the depth limit)"
        return (
            f"{name} was visited, but its value was never asked: the reference asks "
            f"game.{method} there{where}."
        )

    def _depth_counts_down(self) -> bool:
        """Whether the student's depth argument is the depth remaining (else: depth so far).

        The convention is read off the root's call: a root called with depth 0 counts up.
        """
        root_call = self.student.first_call(self.tree.root.name)
        return root_call is None or root_call.depth != 0

    @property
    def windowed(self) -> bool:
        """True for an alpha-beta search."""
        return self.ref.windowed

    def allowed(self, name: str) -> Allowed | None:
        """What ``name`` may return under the reference's window (None: no true value)."""
        at = self.geometry.index.get(name)
        allowed = None if at is None else self.facts.allowed_in_preorder[at]
        if allowed is not None:
            return allowed
        value = self.values.get(name)
        if value is None:
            return None
        return allowed_values(
            value,
            self.ref.windows.get(name),
            prune_on_equality=self.options.prune_on_equality,
        )

    def expected_depth(self, name: str) -> int | None:
        """The depth argument ``name`` should receive, in the student's convention."""
        limit = self.options.depth_limit
        if limit is None:
            return None
        depth = self.geometry.depth[name]
        return limit - depth if self.depth_counts_down else depth

    def bounds_mismatch(self, name: str) -> Mismatch | None:
        """How the window (or depth) ``name`` received differs from the reference's."""
        call = self.student.first_call(name)
        if call is None:
            return None
        window = self.ref.windows.get(name)
        if window is not None and call.alpha is not None and call.beta is not None:
            alpha, beta = window
            if not (same(call.alpha, alpha) and same(call.beta, beta)):
                expected = window_text(alpha, beta)
                actual = window_text(call.alpha, call.beta)
                return Mismatch(
                    expected,
                    actual,
                    f"{name} received {actual} but the reference searches it with {expected}.",
                    "beta" if same(call.alpha, alpha) else "alpha",
                )
        depth = self.expected_depth(name)
        if depth is not None and call.depth is not None and call.depth != depth:
            return Mismatch(
                f"depth {depth}",
                f"depth {call.depth}",
                f"{name} received depth {call.depth} but the reference searches it "
                f"with depth {depth}.",
                "depth",
            )
        return None

    def value_mismatch(self, name: str, allowed: Allowed | None = None) -> Mismatch | None:
        """How the value ``name`` returned is not one it may return (None: fine or unseen).

        ``allowed`` saves working out :meth:`allowed` again.
        """
        returned = self.student.first_return(name)
        if returned is None:
            return None
        allowed = allowed or self.allowed(name)
        if allowed is None:
            return None
        if returned.value is None:
            return Mismatch(
                allowed.describe(),
                returned.shown or "-",
                _problem_message(name, returned.problem, returned.shown),
            )
        if allowed.contains(returned.value):
            return None
        return Mismatch(
            allowed.describe(),
            format_value(returned.value),
            self._value_message(name, returned.value, allowed),
        )

    def _value_message(self, name: str, value: Number, allowed: Allowed) -> str:
        true_value = format_value(self.values[name])
        its = "its value for the player to move" if self.negamax else "its value"
        head = f"{name} returned {format_value(value)} but {its} is {true_value}"
        window = self.ref.windows.get(name)
        if window is None:
            return f"{head}."
        alpha, beta = (format_value(bound) for bound in window)
        if allowed.exact:
            edge = ""
            if same(self.values[name], window[1]):
                edge = f"at beta = {beta}"
            elif same(self.values[name], window[0]):
                edge = f"at alpha = {alpha}"
            if edge:  # on the window's edge, not inside it
                return (
                    f"{head}, {edge} (the window is {window_text(*window)}), "
                    f"so it must return {true_value}."
                )
            return f"{head}, inside {window_text(*window)}, so it must return {true_value}."
        low, high = format_value(allowed.low), format_value(allowed.high)
        if self.values[name] <= window[0]:  # it fails low
            relation = "<=" if not allowed.high_open else "<"
            return (
                f"{head} {relation} alpha = {alpha}, so it must return a value v with "
                f"{low} <= v {relation} {high}."
            )
        relation = ">=" if not allowed.low_open else ">"
        mirrored = "<=" if not allowed.low_open else "<"
        return (
            f"{head} {relation} beta = {beta}, so it must return a value v with "
            f"{low} {mirrored} v <= {high}."
        )


def _problem_message(name: str, problem: ValueProblem | None, shown: str) -> str:
    if problem is None:
        return f"{name} returned no value."
    detail = f" ({shown})" if problem in (ValueProblem.NOT_A_NUMBER, ValueProblem.RIGGED) else ""
    return f"{name} {problem.value}{detail}; a number was expected."
