"""Judging one tree: a verdict for every node, the answer, the first divergence, the score."""

from __future__ import annotations

from reference.exercises.model import Scoring
from reference.feedback.answer import judge_answer
from reference.feedback.checks import Context
from reference.feedback.divergence import first_divergence
from reference.feedback.explain import extra_reason, order_text, pruned_reason
from reference.feedback.scoring import node_share, tree_score
from reference.feedback.verdicts import NodeFeedback, TreeFeedback, Verdict, Window
from reference.observed import Observed
from reference.search import SearchResult
from reference.tree import Tree
from reference.values import format_value


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
    nodes = tuple(node_feedback(ctx, name) for name in tree.nodes)
    answer = judge_answer(ctx)
    score = tree_score(
        scoring,
        value_ok=answer.value_ok,
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
    )


def node_feedback(ctx: Context, name: str) -> NodeFeedback:
    """The verdict on one node (see :class:`Verdict` for the precedence)."""
    student = ctx.student
    visited = student.visited(name)
    expected_visit = name in ctx.ref_visited
    allowed = ctx.allowed(name) if expected_visit else None
    returned = student.returns.get(name)
    call = student.calls.get(name)
    received: Window | None = None
    if call is not None and (call[1].alpha is not None or call[1].beta is not None):
        received = (call[1].alpha, call[1].beta)

    def feedback(
        verdict: Verdict, expected: str | None, actual: str | None, message: str
    ) -> NodeFeedback:
        return NodeFeedback(
            name,
            verdict,
            expected,
            actual,
            message,
            true_value=ctx.values.get(name),
            allowed=allowed,
            returned=None if returned is None else returned[1].value,
            window=ctx.ref.windows.get(name),
            received=received,
        )

    if not expected_visit:
        if visited:
            return feedback(Verdict.EXTRA, "not visited", "visited", extra_reason(ctx, name))
        return feedback(Verdict.PRUNED, None, None, pruned_reason(ctx, name))
    if not visited:
        return feedback(
            Verdict.MISSED,
            "visited",
            "not visited",
            f"{name} was never visited, but the reference searches it.",
        )
    if name in student.repeated:
        return feedback(
            Verdict.REPEATED,
            "searched once",
            "searched again",
            f"{name} was searched again after your search had finished it.",
        )
    sibling = student.out_of_order.get(name)
    if sibling is not None:
        return feedback(
            Verdict.OUT_OF_ORDER,
            f"after {sibling}",
            f"before {sibling}",
            f"{name} was visited before {sibling}, which comes first in search order "
            f"({order_text(ctx)}).",
        )
    mismatch = ctx.bounds_mismatch(name)
    if mismatch is not None:
        return feedback(Verdict.WRONG_BOUNDS, mismatch.expected, mismatch.actual, mismatch.message)
    mismatch = ctx.value_mismatch(name, allowed)
    if mismatch is not None:
        return feedback(Verdict.WRONG_VALUE, mismatch.expected, mismatch.actual, mismatch.message)
    expected_text = None if allowed is None else allowed.describe()
    if returned is None or returned[1].value is None or allowed is None:
        why = (
            "values are not observed in the decision-function form"
            if ctx.observed.decision_style
            else "no value returned for it was observed"
        )
        return feedback(Verdict.NOT_OBSERVED, expected_text, None, f"{name} was visited; {why}.")
    value = format_value(returned[1].value)
    within = "" if allowed.exact else f", within {allowed.describe()}"
    return feedback(Verdict.OK, expected_text, value, f"{name} returned {value}{within}.")
