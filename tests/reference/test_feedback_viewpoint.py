"""A decision-style search where MIN moves at the root may give its values for MIN (as
aima-python's helpers do, scoring for the player at the root): they are read in that view."""

from __future__ import annotations

from reference.feedback import Verdict, judge
from reference.feedback.viewpoint import in_max_view
from reference.observed import Observed, Return, Visit
from reference.search import search
from reference.tree import Number
from reference.treefile import parse_compact

MIN_ROOT = "MIN[ MAX[3 12 8] MAX[2 4 6] MAX[14 5 2] ]"
TRUE = {"B": 12, "C": 6, "D": 14, "B1": 3, "B2": 12, "B3": 8}


def observed(values: dict[str, Number], *, decision_style: bool = True) -> Observed:
    events: list[Visit | Return] = []
    for name in ("A", "B", "B1", "B2", "B3", "C", "C1", "C2", "C3", "D", "D1", "D2", "D3"):
        events.append(Visit(name, "utility" if len(name) == 2 else "actions"))
    for name, value in values.items():
        events.append(Return(name, "max_value", value, None, str(value)))
    return Observed(events, decision=None if not decision_style else "a2",
                    decision_style=decision_style)  # fmt: skip


def verdicts(seen: Observed) -> dict[str, Verdict]:
    tree = parse_compact(MIN_ROOT)
    return judge(tree, search(tree, "minimax"), seen).verdicts()


def test_values_for_min_at_a_min_root_are_read_as_min_gives_them() -> None:
    for_min = observed({name: -value for name, value in TRUE.items()})
    assert {verdicts(for_min)[name] for name in TRUE} == {Verdict.OK}
    # A copy is judged; what was recorded stays as recorded.
    assert for_min.events[-1] == Return("B3", "max_value", -8, None, "-8")


def test_values_for_max_at_a_min_root_are_read_as_they_are() -> None:
    assert {verdicts(observed(TRUE))[name] for name in TRUE} == {Verdict.OK}


def test_one_wrong_value_among_values_for_min_is_still_wrong() -> None:
    values = {name: -value for name, value in TRUE.items()} | {"C": 6}
    found = verdicts(observed(values))
    assert found["C"] is Verdict.WRONG_VALUE and found["B"] is Verdict.OK


def test_entry_functions_values_are_never_turned() -> None:
    seen = observed({name: -value for name, value in TRUE.items()}, decision_style=False)
    tree = parse_compact(MIN_ROOT)
    assert in_max_view(seen, tree, TRUE, negamax=False) is seen
    assert verdicts(seen)["B"] is Verdict.WRONG_VALUE


def test_negamax_values_are_the_movers_whatever_the_root() -> None:
    seen = observed({name: -value for name, value in TRUE.items()})
    assert in_max_view(seen, parse_compact(MIN_ROOT), TRUE, negamax=True) is seen
