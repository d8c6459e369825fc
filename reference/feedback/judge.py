"""Judging one tree: a verdict for every node, the answer, the first divergence, the score."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from reference.exercises.model import Scoring
from reference.feedback.answer import judge_answer
from reference.feedback.checks import Context
from reference.feedback.divergence import first_divergence
from reference.feedback.explain import cache_message, extra_reason, order_text, pruned_reason
from reference.feedback.scoring import node_share, tree_score
from reference.feedback.values import Allowed, show
from reference.feedback.verdicts import NodeFeedback, TreeFeedback, Verdict, node_feedback_table
from reference.observed import Observed
from reference.search import SearchResult
from reference.tree import Number, Tree


def judge(
    tree: Tree,
    reference: SearchResult,
    observed: Observed,
    scoring: Scoring | None = None,
) -> TreeFeedback:
    """Compare what the student's search did on ``tree`` with the reference search.

    ``reference`` is the exercise's reference search of ``tree`` (under the exercise's
    pruning rule, order and depth limit); ``observed`` what the harness recorded.
    """
    scoring = scoring or Scoring()
    ctx = Context(tree, reference, observed)
    nodes = judge_tree(ctx)
    answer = judge_answer(ctx)
    # A miscount of static evaluations (MIT 6.034's answers carry one) costs the value's
    # points: the answer (path, score, evaluations) is wrong, as the lab's tests say.
    value_ok = answer.value_ok
    if value_ok and answer.evaluations_ok is False:
        value_ok = False
    score = tree_score(
        scoring,
        value_ok=value_ok,
        decision_ok=answer.decision_ok,
        share=node_share(feedback.verdict for feedback in nodes),
    )
    return TreeFeedback(
        nodes=nodes,
        value_expected=answer.value_expected,
        value_actual=answer.value_actual,
        value_ok=answer.value_ok,
        decision_expected=answer.decision_expected,
        decision_actual=answer.decision_actual,
        decision_ok=answer.decision_ok,
        first_divergence=first_divergence(ctx, answer),
        score=score,
        max_score=scoring.total,
        evaluations_ok=answer.evaluations_ok,
    )


def node_feedback(ctx: Context, name: str) -> NodeFeedback:
    """The verdict on one node (see :class:`Verdict` for the precedence)."""
    return judge_nodes(ctx, [name])[0]


def judge_nodes(ctx: Context, names: Iterable[str]) -> tuple[NodeFeedback, ...]:
    """:func:`node_feedback` of each of ``names``, in order."""
    facts, student = ctx.facts, ctx.student
    at = list(map(facts.geometry.index.__getitem__, names))
    return _judge_columns(
        ctx,
        Columns(
            [facts.geometry.names[i] for i in at],
            [facts.allowed_in_preorder[i] for i in at],
            [student.returned_in_preorder[i] for i in at],
            bytes(facts.searched_in_preorder[i] for i in at),
            bytes(student.visited_in_preorder[i] for i in at),
            [facts.values_in_preorder[i] for i in at],
            [facts.windows_in_preorder[i] for i in at],
            [student.received_in_preorder[i] for i in at],
        ),
    )


def judge_tree(ctx: Context) -> tuple[NodeFeedback, ...]:
    """:func:`node_feedback` of every node of the tree, in preorder."""
    facts, student = ctx.facts, ctx.student
    return _judge_columns(
        ctx,
        Columns(
            facts.geometry.names,
            facts.allowed_in_preorder,
            student.returned_in_preorder,
            facts.searched_in_preorder,
            student.visited_in_preorder,
            facts.values_in_preorder,
            facts.windows_in_preorder,
            student.received_in_preorder,
        ),
    )


class Columns(NamedTuple):
    """What judging nodes needs, one entry per node."""

    names: list[str]
    allowed: list[Allowed | None]
    returned: list[Number | None]
    searched: bytes | bytearray
    """Non-zero where the reference visits the node."""
    visited: bytes | bytearray
    """Non-zero where the student's search visited the node."""
    values: list[Number | None]
    windows: list[tuple[Number, Number] | None]
    received: list[tuple[Number | None, Number | None] | None]


def _judge_columns(ctx: Context, nodes: Columns) -> tuple[NodeFeedback, ...]:
    """The feedback on ``nodes``, built column by column: only the verdicts need Python
    code per node. Most nodes are plain: the reference and the student searched them alike
    and the value they returned may be returned; their verdict is made here, the others'
    by :class:`NodeJudge`."""
    if not nodes.names:
        return ()
    judge = NodeJudge(ctx)
    suspects = judge.suspects
    described: dict[Allowed, tuple[str, str]] = {}  # see NodeJudge
    rows: list[Judgement] = []
    add = rows.append
    ok = Verdict.OK
    for name, can, got, searched, visited in zip(
        nodes.names, nodes.allowed, nodes.returned, nodes.searched, nodes.visited, strict=True
    ):
        if got is None or can is None or not searched or not visited or name in suspects:
            add(judge(name, can, got))
            continue
        texts = described.get(can)
        if texts is None:
            expected = can.describe()
            texts = described[can] = (expected, "" if can.exact else f", within {expected}")
        value = str(got) if type(got) is int else show(got)
        add((ok, texts[0], value, f"{name} returned {value}{texts[1]}."))
    return node_feedback_table(
        nodes.names,
        *zip(*rows, strict=True),
        nodes.values,
        nodes.allowed,
        nodes.returned,
        nodes.windows,
        nodes.received,
    )


Judgement = tuple[Verdict, str | None, str | None, str]
"""A verdict with its expected and actual texts and its sentence."""


class NodeJudge:
    """The verdicts on nodes, with the context's tables at hand to judge node after node."""

    __slots__ = (
        "ctx",
        "described",
        "first_visit",
        "pruned_rest",
        "ref_visited",
        "suspects",
        "unvisited",
    )

    def __init__(self, ctx: Context) -> None:
        student = ctx.student
        self.ctx = ctx
        self.first_visit = student.first_visit
        self.ref_visited = ctx.ref_visited
        self.unvisited = ctx.ref.unvisited
        self.pruned_rest = ctx.pruned_rest
        self.suspects = (
            student.repeated.keys()
            | student.out_of_order.keys()
            | ctx.wrong_bounds
            | ctx.wrong_values
            | ctx.unasked.keys()
        )
        """The nodes that may get a verdict worse than missed: all others are fine."""
        self.described: dict[Allowed, tuple[bool, str]] = {}
        """Whether an :class:`Allowed` is exact, and its text: many nodes may return the
        same values (the exact answers of int values are even one object, see
        :mod:`reference.feedback.screen`)."""

    def __call__(self, name: str, allowed: Allowed | None, returned: Number | None) -> Judgement:
        """The judgement on ``name``, which may return ``allowed`` and returned ``returned``."""
        if name in self.ref_visited:
            return self.searched(name, allowed, returned)
        if name in self.first_visit:
            return Verdict.EXTRA, "not visited", "visited", extra_reason(self.ctx, name)
        # Most nodes of a pruned tree are here: reuse the end of the sentence once made.
        rest = self.pruned_rest.get(self.unvisited.get(name))
        if rest is None:
            return Verdict.PRUNED, None, None, pruned_reason(self.ctx, name)
        return Verdict.PRUNED, None, None, name + rest

    def searched(self, name: str, allowed: Allowed | None, returned: Number | None) -> Judgement:
        """The judgement on a node the reference searches."""
        if name not in self.first_visit:
            if self.ctx.student.from_own_cache(name):
                return Verdict.MISSED, "visited", "answered from cache", cache_message(name)
            return (
                Verdict.MISSED,
                "visited",
                "not visited",
                f"{name} was never visited, but the reference searches it.",
            )
        if name in self.suspects:
            judgement = self.suspected(name, allowed)
            if judgement is not None:
                return judgement
        if allowed is None:
            return Verdict.NOT_OBSERVED, None, None, self.not_observed(name)
        described = self.described.get(allowed)
        if described is None:
            described = self.described[allowed] = (allowed.exact, allowed.describe())
        exact, expected = described
        if returned is None:
            return Verdict.NOT_OBSERVED, expected, None, self.not_observed(name)
        value = show(returned)
        within = "" if exact else f", within {expected}"
        return Verdict.OK, expected, value, f"{name} returned {value}{within}."

    def suspected(self, name: str, allowed: Allowed | None) -> Judgement | None:
        """The judgement on a visited node that was repeated, out of order, visited without
        asking its value, or screened for a wrong window, depth or value; None when it is
        fine after all."""
        ctx = self.ctx
        if name in ctx.student.repeated:
            return (
                Verdict.REPEATED,
                "searched once",
                "searched again",
                f"{name} was searched again after your search had finished it.",
            )
        sibling = ctx.student.out_of_order.get(name)
        if sibling is not None:
            return (
                Verdict.OUT_OF_ORDER,
                f"after {sibling}",
                f"before {sibling}",
                f"{name} was visited before {sibling}, which comes first in search order "
                f"({order_text(ctx)}).",
            )
        if name in ctx.unasked:
            return Verdict.MISSED, "value asked", "value never asked", ctx.unasked_message(name)
        mismatch = ctx.bounds_mismatch(name) if name in ctx.wrong_bounds else None
        if mismatch is not None:
            return Verdict.WRONG_BOUNDS, mismatch.expected, mismatch.actual, mismatch.message
        mismatch = ctx.value_mismatch(name, allowed) if name in ctx.wrong_values else None
        if mismatch is not None:
            return Verdict.WRONG_VALUE, mismatch.expected, mismatch.actual, mismatch.message
        return None

    def not_observed(self, name: str) -> str:
        """The sentence for a node searched as the reference does, whose value went unseen."""
        why = (
            # No entry function was wrapped: a value is seen only where a function of the
            # student's file returns a number for the state (see worker.harness.observer).
            "none of your functions returned a number for it after asking the game about it"
            if self.ctx.observed.decision_style
            else "no value returned for it was observed"
        )
        return f"{name} was visited; {why}."
