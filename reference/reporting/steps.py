"""Both searches of a public tree, step by step, for the feedback page's replay: entries
(with the window the search was given), evaluations and returns (a reference cut-off is
told on the return it causes)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import TypedDict

from reference.observed import GENERATE, Call, Observed, Visit
from reference.observed import Return as ObservedReturn
from reference.report import Replay, Step
from reference.reporting.limits import LIMITS, ReportLimits
from reference.reporting.values import shown
from reference.search import Cutoff, Enter, Evaluate, Return, SearchResult
from reference.tree import Number, Tree


class _Window(TypedDict, total=False):
    """The window a step enters a node with: only what the search was given."""

    alpha: str
    beta: str
    depth: int


def _window(alpha: Number | None, beta: Number | None, depth: int | None) -> _Window:
    window: _Window = {}
    if alpha is not None:
        window["alpha"] = shown(alpha) or ""
    if beta is not None:
        window["beta"] = shown(beta) or ""
    if depth is not None:
        window["depth"] = depth
    return window


def student_steps(tree: Tree, observed: Observed, *, generated: bool = False) -> Iterator[Step]:
    """The student's search as the replay shows it: entries, evaluations and returns.

    Questions that only find the way (terminal_test, actions, ...) are left out, so that a
    correct search has the reference's steps. A node scored without a call of an entry
    function (a leaf's utility asked in its parent's loop) is entered and left around it."""
    if not any(type(event) is Call for event in observed.events):
        yield from _helper_steps(tree, observed, generated)
        return
    called: set[str] = set()
    for event in observed.events:
        if isinstance(event, Call):
            called.add(event.node)
            window = _window(event.alpha, event.beta, event.depth)
            yield Step(node=event.node, event="enter", **window)
        elif isinstance(event, ObservedReturn):
            value = shown(event.value) if event.problem is None else event.shown
            yield Step(node=event.node, event="exit", value=value)
        elif isinstance(event, Visit) and event.method in ("utility", "eval"):
            node = tree.nodes.get(event.node)
            known = None if node is None else node.utility if node.is_leaf else node.heuristic
            if event.node not in called:
                yield Step(node=event.node, event="enter")
            yield Step(node=event.node, event="evaluate", value=shown(known))
            if event.node not in called:
                yield Step(node=event.node, event="exit", value=shown(known))


def _helper_steps(tree: Tree, observed: Observed, generated: bool) -> Iterator[Step]:
    """The steps of a search whose entry functions were not wrapped (a decision function,
    a course's agent class: see :mod:`worker.harness.observer`): a node is entered when the
    game is first asked about it, or, where generating counts as reaching it (``generated``:
    CS188), when its state is generated if it is never asked about; evaluated when its
    value is asked; and left when the outermost of the student's functions on it returned
    its value, or right after its evaluation when none did."""
    returned = {event.node for event in observed.events if type(event) is ObservedReturn}
    # A state generated and asked about is entered when asked (in the search's order); one
    # generated and never asked about (past a cut, say) when it was generated.
    asked = {
        event.node for event in observed.events if type(event) is Visit and event.method != GENERATE
    }
    entered: set[str] = set()
    for event in observed.events:
        if isinstance(event, Visit):
            if event.method == GENERATE and (not generated or event.node in asked):
                continue
            if event.node not in entered:
                entered.add(event.node)
                yield Step(node=event.node, event="enter")
            if event.method in ("utility", "eval"):
                node = tree.nodes.get(event.node)
                known = None if node is None else node.utility if node.is_leaf else node.heuristic
                yield Step(node=event.node, event="evaluate", value=shown(known))
                if event.node not in returned:
                    yield Step(node=event.node, event="exit", value=shown(known))
        elif isinstance(event, ObservedReturn):
            value = shown(event.value) if event.problem is None else event.shown
            yield Step(node=event.node, event="exit", value=value)


def reference_steps(result: SearchResult) -> Iterator[Step]:
    """The reference search in the same steps; a cut-off is told on the return it causes."""
    cutoffs: dict[str, Cutoff] = {}
    for event in result.trace:
        if isinstance(event, Enter):
            window = _window(event.alpha, event.beta, None)
            yield Step(node=event.node, event="enter", **window)
        elif isinstance(event, Evaluate):
            yield Step(node=event.node, event="evaluate", value=shown(event.value))
        elif isinstance(event, Cutoff):
            cutoffs[event.node] = event
        elif isinstance(event, Return):
            value = shown(event.value)
            cutoff = cutoffs.pop(event.node, None)
            if cutoff is None:
                yield Step(node=event.node, event="exit", value=value)
                continue
            left, relation, right = cutoff.rule.split(" ")
            rule = f"{left} = {shown(cutoff.value)} {relation} {right} = {shown(cutoff.bound)}"
            pruned = list(cutoff.pruned)
            yield Step(node=event.node, event="exit", value=value, cutoff=rule, pruned=pruned)


def replay(
    tree: Tree, observed: Observed, reference: SearchResult, limits: ReportLimits = LIMITS
) -> Replay:
    """Both searches of a public tree, step by step, for the feedback page's replay.

    Each search's steps are read up to one more than a replay keeps (a search can take
    millions of steps; the one more tells :func:`reference.reporting.limits.fit`, which
    cuts the replay and says it is ``truncated``, that there were more)."""
    read = limits.replay_steps + 1
    return Replay(
        student=list(
            islice(
                student_steps(
                    tree, observed, generated=reference.options.generation == "generated"
                ),
                read,
            )
        ),
        reference=list(islice(reference_steps(reference), read)),
        truncated=False,
        # A decision function whose helpers returned no value for any node has only the
        # nodes it scores to show: its steps cannot be lined up with the reference's.
        decision_style=observed.decision_style
        and not any(type(event) is ObservedReturn for event in observed.events),
    )
