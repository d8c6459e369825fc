"""Judging one tree: a verdict for every node, the answer, the first divergence, the score."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
    nodes, verdicts = _judge_columns(ctx, _tree_columns(ctx))
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
        share=node_share(verdicts),
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
            at,
            [facts.geometry.names[i] for i in at],
            [facts.allowed_in_preorder[i] for i in at],
            [facts.described_in_preorder[i] for i in at],
            [student.returned_in_preorder[i] for i in at],
            bytes(facts.searched_in_preorder[i] for i in at),
            bytes(student.visited_in_preorder[i] for i in at),
            [facts.values_in_preorder[i] for i in at],
            [facts.windows_in_preorder[i] for i in at],
            [student.received_in_preorder[i] for i in at],
        ),
    )[0]


def judge_tree(ctx: Context) -> tuple[NodeFeedback, ...]:
    """:func:`node_feedback` of every node of the tree, in preorder."""
    return _judge_columns(ctx, _tree_columns(ctx))[0]


def _tree_columns(ctx: Context) -> Columns:
    facts, student = ctx.facts, ctx.student
    return Columns(
        range(len(facts.geometry.names)),
        facts.geometry.names,
        facts.allowed_in_preorder,
        facts.described_in_preorder,
        student.returned_in_preorder,
        facts.searched_in_preorder,
        student.visited_in_preorder,
        facts.values_in_preorder,
        facts.windows_in_preorder,
        student.received_in_preorder,
    )


class Columns(NamedTuple):
    """What judging nodes needs, one entry per node."""

    at: Sequence[int]
    """The nodes' preorder positions."""
    names: list[str]
    allowed: list[Allowed | None]
    described: list[tuple[str, str] | None]
    """What ``allowed`` says (see :attr:`TreeFacts.described_in_preorder`)."""
    returned: list[Number | None]
    searched: bytes | bytearray
    """Non-zero where the reference visits the node."""
    visited: bytes | bytearray
    """Non-zero where the student's search visited the node."""
    values: list[Number | None]
    windows: list[tuple[Number, Number] | None]
    received: list[tuple[Number | None, Number | None] | None]


def _judge_columns(ctx: Context, nodes: Columns) -> tuple[tuple[NodeFeedback, ...], list[Verdict]]:
    """The feedback on ``nodes``, built column by column, and their verdicts: only the
    verdicts need Python code per node. Most nodes are plain: the reference and the student
    searched them alike and the value they returned may be returned; their verdict is made
    here, the others' by :class:`NodeJudge`."""
    if not nodes.names:
        return (), []
    judge = NodeJudge(ctx)
    verdicts: list[Verdict] = []
    expected: list[str | None] = []
    actual: list[str | None] = []
    messages: list[str] = []
    # One append per column and node: the columns are what the feedback is built from.
    verdict, expect, act, say = verdicts.append, expected.append, actual.append, messages.append
    ok = Verdict.OK
    shown: dict[int, str] = {}  # the text of each int value returned, made once
    suspect = judge.suspect
    for at, name, can, texts, got, searched, visited in zip(
        nodes.at,
        nodes.names,
        nodes.allowed,
        nodes.described,
        nodes.returned,
        nodes.searched,
        nodes.visited,
        strict=True,
    ):
        if got is None or texts is None or not searched or not visited or suspect[at]:
            judgement = judge(at, name, can, got)
            verdict(judgement[0])
            expect(judgement[1])
            act(judgement[2])
            say(judgement[3])
            continue
        if type(got) is int:
            value = shown.get(got)
            if value is None:
                value = shown[got] = str(got)
        else:
            value = show(got)
        verdict(ok)
        expect(texts[0])
        act(value)
        say(f"{name} returned {value}{texts[1]}.")
    return node_feedback_table(
        nodes.names,
        verdicts,
        expected,
        actual,
        messages,
        nodes.values,
        nodes.allowed,
        nodes.returned,
        nodes.windows,
        nodes.received,
    ), verdicts


Judgement = tuple[Verdict, str | None, str | None, str]
"""A verdict with its expected and actual texts and its sentence."""


class NodeJudge:
    """The verdicts on nodes, with the context's tables at hand to judge node after node."""

    __slots__ = (
        "ctx",
        "first_seen",
        "pruned_rest",
        "searched_at",
        "suspect",
        "suspects",
        "unvisited",
    )

    def __init__(self, ctx: Context) -> None:
        student = ctx.student
        self.ctx = ctx
        self.first_seen = student.first_visit_in_preorder
        self.searched_at = ctx.facts.searched_in_preorder
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
        index = ctx.geometry.index
        self.suspect = bytearray(len(index))
        """Non-zero for each of ``suspects``, by preorder position."""
        for name in self.suspects:
            self.suspect[index[name]] = 1

    def __call__(
        self, at: int, name: str, allowed: Allowed | None, returned: Number | None
    ) -> Judgement:
        """The judgement on ``name`` (at preorder position ``at``), which may return
        ``allowed`` and returned ``returned``."""
        if self.searched_at[at]:
            return self.searched(at, name, allowed, returned)
        if self.first_seen[at] is not None:
            return Verdict.EXTRA, "not visited", "visited", extra_reason(self.ctx, name)
        # Most nodes of a pruned tree are here: reuse the end of the sentence once made.
        rest = self.pruned_rest.get(self.unvisited.get(name))
        if rest is None:
            return Verdict.PRUNED, None, None, pruned_reason(self.ctx, name)
        return Verdict.PRUNED, None, None, name + rest

    def searched(
        self, at: int, name: str, allowed: Allowed | None, returned: Number | None
    ) -> Judgement:
        """The judgement on a node the reference searches."""
        if self.first_seen[at] is None:
            if self.ctx.student.from_own_cache(name):
                return Verdict.MISSED, "visited", "answered from cache", cache_message(name)
            return (
                Verdict.MISSED,
                "visited",
                "not visited",
                f"{name} was never visited, but the reference searches it.",
            )
        if self.suspect[at]:
            judgement = self.suspected(name, allowed)
            if judgement is not None:
                return judgement
        if allowed is None:
            return Verdict.NOT_OBSERVED, None, None, self.not_observed(name)
        described = self.ctx.facts.described_in_preorder[at]
        assert described is not None
        expected, within = described
        if returned is None:
            return Verdict.NOT_OBSERVED, expected, None, self.not_observed(name)
        value = show(returned)
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
