"""The student's final answer: the root's value and, where it can be seen, the decision."""

from __future__ import annotations

from dataclasses import dataclass

from reference.feedback.checks import Context
from reference.feedback.values import same
from reference.tree import Number
from reference.values import format_value


@dataclass(frozen=True, slots=True)
class Answer:
    """The root's value and the decision, expected and given; ``message`` says what is wrong.

    ``value_ok`` is None in the decision-function form (the search returns an action, not a
    value) unless a function of the student's returned the root's value (see
    :attr:`Observed.root_value`). ``decision_ok`` is None when no decision was observed or
    the root has none (a chance node or a leaf). Any best action is a correct decision, not
    only the reference's.
    """

    value_expected: Number
    value_actual: Number | None
    value_ok: bool | None
    decision_expected: str | None
    decision_actual: str | None
    decision_ok: bool | None
    message: str | None
    evaluations_ok: bool | None = None
    """Whether the count of static evaluations the search says it made is the search's,
    where the course's functions return one (MIT 6.034); None elsewhere."""


def best_actions(ctx: Context) -> set[str]:
    """The root's actions that lead to a child worth the root's own value."""
    root = ctx.tree.root
    value = ctx.max_values.get(root.name)
    if value is None:
        return set()
    return {
        edge.action
        for edge in root.edges
        if edge.child in ctx.max_values and same(ctx.max_values[edge.child], value)
    }


def judge_answer(ctx: Context) -> Answer:
    """Compare the student's root value and decision with the true ones."""
    observed = ctx.observed
    root = ctx.tree.root.name
    expected = ctx.values.get(root, ctx.reference.value)
    messages: list[str] = []
    value_actual: Number | None = None
    value_ok: bool | None = None
    if not observed.decision_style or observed.root_value is not None:
        value_actual = observed.root_value
        value_ok = value_actual is not None and same(value_actual, expected)
        if value_actual is None:
            problem = observed.root_problem
            what = f"{problem.value}" if problem is not None else "returned no value"
            messages.append(
                f"Your search {what} for the root {root}; its value is {format_value(expected)}."
            )
        elif not value_ok:
            messages.append(
                f"Your search returned {format_value(value_actual)} for the root {root}, "
                f"but its value is {format_value(expected)}."
            )
    claimed = observed.claimed_evaluations
    evaluations_ok: bool | None = None
    if claimed is not None:
        # The course's functions return how many static evaluations they made (MIT 6.034's
        # (path, score, evaluations)): a miscount makes the answer wrong, as the lab's
        # tests say.
        made = len(ctx.reference.trace.evaluated())
        evaluations_ok = same(claimed, made)
        if not evaluations_ok:
            messages.append(
                f"Your search says it made {format_value(claimed)} static "
                f"evaluation{'' if same(claimed, 1) else 's'}; the search makes {made}."
            )
    decision_expected = ctx.reference.decision
    decision_actual = observed.decision
    decision_ok: bool | None = None
    if decision_expected is not None and (observed.decision_style or decision_actual is not None):
        decision_ok = decision_actual in best_actions(ctx)
        if not decision_ok:
            messages.append(_decision_message(ctx, decision_actual, decision_expected))
    return Answer(
        expected,
        value_actual,
        value_ok,
        decision_expected,
        decision_actual,
        decision_ok,
        " ".join(messages) or None,
        evaluations_ok,
    )


def _decision_message(ctx: Context, actual: str | None, expected: str) -> str:
    root = ctx.tree.root
    if actual is None:
        return f"Your search did not return an action at {root.name}; the best move is {expected}."
    if actual not in {edge.action for edge in root.edges}:
        return (
            f"Your search chose {actual!r}, which is not an action at {root.name}; "
            f"the best move is {expected}."
        )
    return (
        f"Your search chose {actual} at {root.name}, but {actual} is not a best move; "
        f"the best move is {expected}."
    )
