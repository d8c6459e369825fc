"""The signature of one search on one tree: what it did, in a form two searches share.

A search leaves a :class:`Signature` whoever ran it: a student's code in the sandbox
(:func:`observed_signature`, from the :class:`~reference.observed.Observed` the harness
records), one of the library's implementations run in process
(:func:`trusted_signature`, from :func:`reference.hidden.trusted.run_trusted`), or the
reference search (:func:`reference_signature`). Its steps, in order:

* ``enter``: an entry function (``max_value``, ``negamax``, ...) was called on a node, with
  the window (alpha, beta) and depth it was given where the algorithm has them;
* ``exit``: that call returned, with its value (and the window it had, for comparing
  values the way the feedback does);
* ``leaf``: a node was scored by its utility or evaluation. A call that did nothing but
  score its own node is one ``leaf`` step with the call's window and returned value, so
  that a search that calls ``min_value`` on a leaf and one that asks the leaf's utility in
  its parent's loop leave the same steps; the latter's leaf has no window and no value.

Questions that only find the way (``terminal_test``, ``actions``, ...) are left out: they
differ between correct searches. A search written in the decision style (the entry
functions nested in ``minmax_decision``) leaves only its ``leaf`` steps and its decision.

What of a search could be seen is its :attr:`Signature.view`: every step; only the leaves
and the decision (the decision style); or only its *surface*, the root's call, the leaves
and the root's value, for a search whose entry function was called on the root but whose
recursion went through a function of its own (``self._search``, ``_helper``) that no
harness wraps. Two searches are compared in the view of the student's (see
:func:`reference.diagnosis.compare.agreement`): calls that were not seen are no
disagreement.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal, NamedTuple

from reference.hidden.trusted import TrustedRun
from reference.observed import Call, Observed, Return, Visit
from reference.search import Enter, Evaluate, SearchResult
from reference.search import Return as ReferenceReturn
from reference.tree import Number

NOT_A_VALUE = "not a value"
"""What a step holds for a returned object that is not a plain number (None, a string,
NaN, ...): any two such agree, and none agrees with a number."""

StepEvent = Literal["enter", "exit", "leaf"]
View = Literal["steps", "leaves", "surface"]
"""What of a search's steps could be seen (see the module's docstring)."""
Value = Number | str | None
"""A number; :data:`NOT_A_VALUE`; or None where the search returned nothing to compare (a
leaf scored in its parent's loop, an ``enter`` step)."""


class Step(NamedTuple):
    """One step of a search (a tuple: a big search has many)."""

    event: StepEvent
    node: str
    alpha: Number | None = None
    beta: Number | None = None
    depth: int | None = None
    value: Value = None

    @property
    def window(self) -> tuple[Number, Number] | None:
        """The (alpha, beta) window of the call, where it had one."""
        if self.alpha is None or self.beta is None:
            return None
        return self.alpha, self.beta


@dataclass(frozen=True, slots=True)
class Signature:
    """The steps of one search of one tree, and how it ended."""

    steps: tuple[Step, ...]
    decisions: frozenset[str] = frozenset()
    """The root action chosen (a decision-style search), or, for the reference, every
    action a correct search may choose."""
    decision_style: bool = False
    failed: bool = False
    """True when the search raised (a library implementation) instead of finishing."""
    inner_calls: bool = True
    """False when no call below the root was seen (the recursion went through a function
    no harness wraps): only the surface is compared (:attr:`view`)."""

    @property
    def view(self) -> View:
        """What of this search could be seen, and so what others are compared with it on."""
        if self.decision_style:
            return "leaves"
        return "steps" if self.inner_calls else "surface"

    def seen(self, view: View) -> tuple[Step, ...]:
        """The steps that ``view`` shows."""
        if view == "steps":
            return self.steps
        if view == "leaves":
            return self.leaves()
        return self.surface()

    def surface(self) -> tuple[Step, ...]:
        """The root's call, the leaves scored (without window or value) and the root's
        return: what a search recursing through a function of its own shows."""
        steps = self.steps
        if not steps:
            return ()
        first, last = steps[0], steps[-1]
        shown = [first] if first.event == "enter" else []
        shown += [Step("leaf", step.node) for step in steps if step.event == "leaf"]
        if len(steps) > 1 and last.event == "exit" and last.node == first.node:
            shown.append(last)
        return tuple(shown)

    def leaves(self) -> tuple[Step, ...]:
        """The ``leaf`` steps alone, without window or value (what a decision-style search
        shows)."""
        return tuple(Step("leaf", step.node) for step in self.steps if step.event == "leaf")


_Raw = tuple[str, str, Number | None, Number | None, int | None, Value]
"""An event before normalising: what (``call``, ``evaluate`` or ``return``), the node, the
call's alpha, beta and depth, and the returned value (plain tuples: a big search has many
events)."""


def steps_of(events: Iterable[_Raw]) -> tuple[Step, ...]:
    """The steps of a stream of raw events (see the module's docstring)."""
    steps: list[Step] = []
    append = steps.append
    calls: list[tuple[tuple[Number | None, Number | None, int | None], str, int]] = []
    # open calls: their window and depth, node, and the index of their enter step
    for what, node, alpha, beta, depth, value in events:
        if what == "call":
            calls.append(((alpha, beta, depth), node, len(steps)))
            append(Step("enter", node, alpha, beta, depth))
        elif what == "evaluate":
            append(Step("leaf", node))
        elif calls and calls[-1][1] == node:
            window, _, at = calls.pop()
            if len(steps) == at + 2 and steps[at + 1] == ("leaf", node, None, None, None, None):
                # A call that only scored its own node: one leaf step.
                del steps[at:]
                append(Step("leaf", node, *window, value=value))
            else:
                append(Step("exit", node, *window, value=value))
        else:  # a return without its call: cannot come from either recorder
            append(Step("exit", node, value=value))
    return tuple(steps)


def _observed_events(observed: Observed) -> Iterator[_Raw]:
    for event in observed.events:
        if isinstance(event, Call):
            depth = event.depth if type(event.depth) is int else None
            yield "call", event.node, event.alpha, event.beta, depth, None
        elif isinstance(event, Return):
            value: Value = NOT_A_VALUE if event.problem is not None else event.value
            yield "return", event.node, None, None, None, NOT_A_VALUE if value is None else value
        elif isinstance(event, Visit) and event.method in ("utility", "eval"):
            yield "evaluate", event.node, None, None, None, None


def observed_signature(observed: Observed) -> Signature:
    """The signature of a student's search as the sandbox's harness recorded it (a run
    that completed)."""
    steps = steps_of(_observed_events(observed))
    return Signature(
        steps,
        decisions=frozenset(() if observed.decision is None else (observed.decision,)),
        decision_style=observed.decision_style,
        inner_calls=_calls_below_root(steps),
    )


def _calls_below_root(steps: tuple[Step, ...]) -> bool:
    """True when some step comes from a call of an entry function below the root (its
    enter or exit, or a leaf scored by a call, which has a window or a value). A search
    with none either recursed where no harness sees it or scored every child of the root
    in the root's own loop; both are compared on their surface, which for the second is
    every step they have."""
    if not steps:
        return True
    root = steps[0].node
    return any(
        step.node != root
        and (
            step.event != "leaf"
            or step.alpha is not None
            or step.depth is not None
            or step.value is not None
        )
        for step in steps
    )


def trusted_signature(run: TrustedRun) -> Signature:
    """The signature of a library implementation run in process."""
    events = (
        (
            seen.what,
            seen.node,
            seen.alpha,
            seen.beta,
            seen.depth,
            NOT_A_VALUE if seen.what == "return" and seen.value is None else seen.value,
        )
        for seen in run.seen
    )
    return Signature(
        steps_of(events),
        decisions=frozenset(() if run.decision is None else (run.decision,)),
        decision_style=run.decision_style,
        failed=run.error is not None,
    )


def reference_signature(
    result: SearchResult, best: frozenset[str], depth_limit: int | None = None
) -> Signature:
    """The signature of the reference search; ``best``: the root actions a correct
    decision may name (:func:`reference.hidden.trusted.best_actions`). With ``depth_limit``
    the depth of each step is the depth left, as the entry functions are given it."""

    def events() -> Iterator[_Raw]:
        for event in result.trace:
            if isinstance(event, Enter):
                depth = None if depth_limit is None else depth_limit - event.depth
                yield "call", event.node, event.alpha, event.beta, depth, None
            elif isinstance(event, Evaluate):
                yield "evaluate", event.node, None, None, None, None
            elif isinstance(event, ReferenceReturn):
                yield "return", event.node, None, None, None, event.value

    return Signature(steps_of(events()), decisions=best)
