"""Whose point of view a decision-style search's values are from.

Where no entry function is wrapped (the textbook's decision functions, course contracts),
the values seen are those the student's own functions returned (see
:class:`~reference.observed.Observed`), and the textbook's decision functions score states
for the player to move at the root: aima-python's ``minmax_decision`` asks
``game.utility(state, player)`` with ``player = game.to_move(root)``, and the harness hands
``alpha_beta_cutoff_search`` an evaluation for that player. Where MIN moves at the root,
such a search's values are MIN's, the negation of the reference's (MAX's); a search that
asks for MAX's utilities has MAX's. The values themselves tell which: a value returned for
a node is its true value, or its negation, more often than not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from reference.feedback.values import same
from reference.observed import Observed, Return
from reference.tree import Kind, Number, Tree


def in_max_view(
    observed: Observed, tree: Tree, max_values: Mapping[str, Number], *, negamax: bool
) -> Observed:
    """``observed`` with its values from MAX's point of view: as it is, unless it is a
    decision-style search of a tree where MIN moves at the root whose values are the
    negations of the true ones (``max_values``, MAX's) more often than they are the true
    ones; then a copy with every returned value negated (the root's too). A negamax search's
    values are the mover's, whatever the root."""
    if not observed.decision_style or negamax or tree.root.kind is not Kind.MIN:
        return observed
    votes = 0  # MIN's point of view minus MAX's
    for event in observed.events:
        if type(event) is not Return or event.value is None:
            continue
        known = max_values.get(event.node)
        if known is None or same(known, -known):
            continue  # a zero tells nothing
        if same(event.value, -known):
            votes += 1
        elif same(event.value, known):
            votes -= 1
    if votes <= 0:
        return observed
    events = [
        replace(event, value=-event.value)
        if type(event) is Return and event.value is not None
        else event
        for event in observed.events
    ]
    root_value = None if observed.root_value is None else -observed.root_value
    return replace(observed, events=events, root_value=root_value)
