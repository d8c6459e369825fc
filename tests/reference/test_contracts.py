"""Course contracts in exercise.yaml, and the conventions they bring to the judge: the order
of children not judged, and states counted when they are generated."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference.contracts import CONTRACTS, ContractChoice, hidden_layers
from reference.exercises import load_exercise
from reference.feedback import Verdict, judge
from reference.observed import GENERATE, Observed, Visit
from reference.problems import FileProblems
from reference.search import SearchOptions, search
from reference.starter import entry_text, starter_source
from reference.tree import Kind
from reference.treefile import parse_compact

TREE = "root: A\nnodes:\n  A: {kind: MAX, children: {a1: B, a2: C}}\n  B: 3\n  C: 5\n"


def exercise_folder(tmp_path: Path, head: str) -> Path:
    folder = tmp_path / "demo"
    folder.mkdir()
    text = f"title: T\n{head}trees:\n  - name: t\n    file: t.tree.yaml\n"
    (folder / "exercise.yaml").write_text(text, encoding="utf-8")
    (folder / "t.tree.yaml").write_text(TREE, encoding="utf-8")
    return folder


def problems(folder: Path) -> list[str]:
    with pytest.raises(FileProblems) as caught:
        load_exercise(folder)
    return [problem.message for problem in caught.value.problems]


def test_an_exercise_without_a_contract_is_the_textbooks(tmp_path: Path) -> None:
    exercise = load_exercise(exercise_folder(tmp_path, "algorithm: minimax\n"))
    assert exercise.contract == ContractChoice()
    assert exercise.options.order_judged and exercise.options.generation == "visit"


def test_a_cs188_contract_brings_cs188s_conventions(tmp_path: Path) -> None:
    head = (
        "algorithm: alphabeta\n"
        "contract: {name: cs188, agent_class: AlphaBetaAgent, agents: 3, depth: 1}\n"
    )
    exercise = load_exercise(exercise_folder(tmp_path, head))
    assert exercise.contract == ContractChoice("cs188", "AlphaBetaAgent", 3, 1)
    assert exercise.options.order == "left-to-right"  # the reference's order
    assert not exercise.options.order_judged
    assert exercise.options.generation == "generated"


def test_an_exercise_may_set_the_conventions_a_contract_defaults(tmp_path: Path) -> None:
    head = (
        "algorithm: minimax\ncontract: {name: cs188, agent_class: MinimaxAgent}\n"
        "conventions: {order: left-to-right, generation: visit}\n"
    )
    exercise = load_exercise(exercise_folder(tmp_path, head))
    assert exercise.options.order_judged and exercise.options.generation == "visit"


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ("algorithm: minimax\ncontract: moodle\n", "unknown contract 'moodle'"),
        ("algorithm: minimax\ncontract: cs188\n", "needs contract.agent_class"),
        (
            "algorithm: negamax\ncontract: {name: cs188, agent_class: A}\n",
            "the cs188 contract has no 'negamax'",
        ),
        ("algorithm: minimax\ncontract: {name: cs188, agent_class: 1x}\n", "not a Python"),
        ("algorithm: minimax\ncontract: {name: cs188, agent_class: A, agents: 1}\n", "agents"),
    ],
)
def test_a_wrong_contract_is_a_problem_named_in_the_file(
    tmp_path: Path, head: str, expected: str
) -> None:
    found = problems(exercise_folder(tmp_path, head))
    assert any(expected in message for message in found), found


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_every_contract_has_a_starter_file_that_compiles(tmp_path: Path, name: str) -> None:
    heads = {
        "textbook": "algorithm: alphabeta\n",
        "cs188": "algorithm: alphabeta\ncontract: {name: cs188, agent_class: AlphaBetaAgent}\n",
        "mit-6.034": "algorithm: alphabeta\ncontract: mit-6.034\n",
    }
    exercise = load_exercise(exercise_folder(tmp_path, heads[name]))
    source = starter_source(exercise)
    compile(source, "starter.py", "exec")
    assert entry_text(exercise).split("(")[0].split(".")[-1] in source


def test_hidden_layers_follow_the_agents_of_a_cs188_exercise() -> None:
    cs188 = ContractChoice("cs188", "MinimaxAgent", 3)
    assert hidden_layers(cs188, (Kind.MAX, Kind.MIN)) == (Kind.MAX, Kind.MIN, Kind.MIN)
    assert hidden_layers(cs188, (Kind.MAX, Kind.CHANCE)) == (Kind.MAX, Kind.CHANCE, Kind.CHANCE)
    assert hidden_layers(ContractChoice(), (Kind.MAX, Kind.MIN)) == (Kind.MAX, Kind.MIN)


# --- the judge under CS188's conventions ----------------------------------------------------

WIDE = parse_compact("A=MAX[B=MIN[D=3 E=5] C=MIN[F=2 G=9]]")
"""Alpha-beta prunes G under the textbook's rule and CS188's: F = 2 < alpha = 3."""


def verdicts(options: SearchOptions, events: list[Visit]) -> dict[str, Verdict]:
    reference = search(WIDE, "alphabeta", options)
    feedback = judge(WIDE, reference, Observed(list(events)))
    return {node.node: node.verdict for node in feedback.nodes}


def visits(*names: str, method: str = "utility") -> list[Visit]:
    return [Visit(name, "actions" if name in "ABC" else method) for name in names]


CS188 = SearchOptions(prune_on_equality=False, order_judged=False, generation="generated")


def test_children_searched_right_to_left_are_out_of_order_only_where_the_order_is_judged() -> None:
    backwards = visits("A", "C", "F", "B", "E", "D")
    judged = verdicts(SearchOptions(prune_on_equality=False), backwards)
    assert judged["C"] is Verdict.OUT_OF_ORDER
    free = verdicts(CS188, backwards)
    assert Verdict.OUT_OF_ORDER not in free.values()


def test_a_state_generated_past_a_cut_is_an_extra_node_when_generating_counts() -> None:
    """A search that generates F and G before searching F: G was generated, so it counts
    as searched (CS188), though the search never asks about it."""
    events = [
        *visits("A"),
        Visit("B", GENERATE),
        *visits("B"),
        Visit("D", GENERATE),
        *visits("D"),
        Visit("E", GENERATE),
        *visits("E"),
        Visit("C", GENERATE),
        *visits("C"),
        Visit("F", GENERATE),
        Visit("G", GENERATE),
        *visits("F"),
    ]
    generated = verdicts(CS188, events)
    assert generated["G"] is Verdict.EXTRA
    assert Verdict.REPEATED not in generated.values()
    # Where only asking counts, generating G is no visit: the same search prunes G.
    asked = verdicts(SearchOptions(prune_on_equality=False, order_judged=False), events)
    assert asked["G"] is Verdict.PRUNED
