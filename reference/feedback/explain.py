"""Sentences about the reference search: why it cut a node off, why it never visited one."""

from __future__ import annotations

from reference.feedback.checks import Context
from reference.feedback.reference_view import Unvisited
from reference.tree import Kind
from reference.values import format_value


def order_text(ctx: Context) -> str:
    """``left to right`` or ``right to left``."""
    return ctx.options.order.replace("-", " ")


def cutoff_text(ctx: Context, node: str) -> tuple[str, str]:
    """For the cut-off at ``node``: its head (``MIN, alpha = 3``) and its test
    (``after C1 returned 2, v = 2 <= alpha = 3``)."""
    backup, cutoff = ctx.ref.cutoffs[node]
    _, relation, bound_name = cutoff.rule.split(" ")
    bound = f"{bound_name} = {format_value(cutoff.bound)}"
    head = f"{ctx.tree[node].kind}, {bound}"
    test = (
        f"after {backup.child} returned {format_value(backup.child_value)}, "
        f"v = {format_value(cutoff.value)} {relation} {bound}"
    )
    return head, test


def _cut(ctx: Context, child: str) -> tuple[str, str]:
    """The node that cut ``child`` off and the test it made there (many nodes ask)."""
    cut = ctx.cut_at.get(child)
    if cut is None:
        parent = ctx.geometry.parent(child)
        assert parent is not None
        cut = ctx.cut_at[child] = (parent, cutoff_text(ctx, parent)[1])
    return cut


def extra_divergence(ctx: Context, name: str) -> tuple[str, str]:
    """Where and why the reference does not go where the student's search went (``name``)."""
    why = ctx.ref.unvisited.get(name)
    if why is not None and why.reason == "pruned":
        parent = ctx.geometry.parent(why.at)
        assert parent is not None
        head, test = cutoff_text(ctx, parent)
        went = "generated" if ctx.geometry.generated else "went on to"
        return parent, (
            f"At {parent} ({head}): {test}, so {parent} could return at once; "
            f"your search {went} {name}."
        )
    if why is not None and why.reason == "depth":
        return why.at, (
            f"At {why.at} (depth {ctx.expected_depth(why.at)}, where the search stops): "
            f"{why.at} is scored by game.eval; your search searched below the depth limit, "
            f"to {name}."
        )
    return name, f"Your search visited {name}, which the reference never visits."


def extra_reason(ctx: Context, name: str) -> str:
    """One node's sentence for the verdict ``extra``."""
    why = ctx.ref.unvisited.get(name)
    # Where generating a state counts as reaching it (CS188), say what the search did.
    reached = "generated" if ctx.geometry.generated else "visited"
    if why is not None and why.reason == "pruned":
        parent, test = _cut(ctx, why.at)
        return f"{name} was {reached}, but the search prunes it at {parent} ({test})."
    if why is not None and why.reason == "depth":
        return (
            f"{name} was {reached}, but it lies below the depth limit: the search stops at "
            f"{why.at} (depth {ctx.expected_depth(why.at)}) and scores it by game.eval."
        )
    return f"{name} was {reached}, but the reference never visits it."


def pruned_reason(ctx: Context, name: str) -> str:
    """One node's sentence for the verdict ``pruned``."""
    why = ctx.ref.unvisited.get(name)
    # The sentence goes on the same way for every node under one cut-off: make it once.
    rest = ctx.pruned_rest.get(why)
    if rest is None:
        rest = ctx.pruned_rest[why] = _pruned_rest(ctx, why)
    return name + rest


def _pruned_rest(ctx: Context, why: Unvisited | None) -> str:
    if why is not None and why.reason == "pruned":
        parent, test = _cut(ctx, why.at)
        return f" was correctly never visited (pruned at {parent}: {test})."
    if why is not None and why.reason == "depth":
        return " was correctly never visited (it lies below the depth limit)."
    return " was correctly never visited."


def missed_divergence(ctx: Context, name: str) -> tuple[str, str]:
    """Where and why the reference searches ``name``, which the student's search skipped."""
    if ctx.student.from_own_cache(name):
        return name, cache_message(name)
    parent = ctx.geometry.parent(name)
    if parent is None:
        return name, f"Your search never visited the root {name}."
    previous = ctx.geometry.previous_sibling(name)
    if previous is None:
        return parent, (
            f"At {parent}: your search never visited {name}, "
            f"the first child of {parent} in search order."
        )
    backup = ctx.ref.backup(previous)
    if not ctx.windowed or backup is None:
        return parent, (
            f"At {parent}: after {previous} your search did not go on to {name}; "
            "every child is searched."
        )
    kind = ctx.tree[parent].kind
    on_equality = ctx.options.prune_on_equality
    if ctx.negamax or kind is Kind.MAX:
        bound = f"beta = {format_value(backup.beta)}"
        relation = ">=" if on_equality else ">"
    else:
        bound = f"alpha = {format_value(backup.alpha)}"
        relation = "<=" if on_equality else "<"
    # The v here is the reference's: the student's own v is never seen, only what their
    # nodes returned.
    own = ctx.student.returned_in_preorder[ctx.geometry.index[parent]]
    yours = ""
    if own is not None and own != backup.value:
        yours = f" (your {parent} returned {format_value(own)})"
    return parent, (
        f"At {parent} ({kind}, {bound}): after {previous} returned "
        f"{format_value(backup.child_value)}, the reference's v = {format_value(backup.value)} "
        f"is not {relation} {bound}, so {parent} must go on to {name}; your search did not"
        f"{yours}."
    )


def cache_message(name: str) -> str:
    """The sentence for a node the student's code answered without asking the game."""
    return (
        f"{name} was answered from your own cache, without asking the game; "
        "the reference searches it."
    )


def order_divergence(ctx: Context, name: str, expected: str) -> tuple[str, str]:
    """Where the student's search took ``name`` before ``expected``, which it visits later."""
    top = ctx.geometry.common_ancestor(name, expected)
    if top == expected:
        return expected, f"Your search asked about {name} before {expected} itself."
    if top == name:  # cannot happen for a first visit in reference order; kept total
        return name, f"Your search visited {name} before {expected}."
    ahead = ctx.geometry.child_toward(top, name)
    behind = ctx.geometry.child_toward(top, expected)
    if behind == expected:
        return top, (
            f"At {top}: your search visited {ahead} before {behind}; "
            f"children are searched {order_text(ctx)}."
        )
    parent = ctx.geometry.parent(expected)
    assert parent is not None
    return parent, (
        f"At {parent}: your search went on to {name} before visiting {expected}, "
        f"and came back to {expected} later."
    )
