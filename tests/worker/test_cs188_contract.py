"""The CS188 contract: students' ``multiAgents.py`` graded as written, agreeing with CS188.

Seventy game-tree tests in CS188's format (as many as the course's q2, q3 and q4 have, drawn
here at random: two or three agents, depths 1 to 3, win and lose states on the way, ties)
are imported with ``grader exercises import-cs188`` and graded in the sandbox with agents
written in the course's style. What CS188's autograder would say is worked out beside it,
by running the same agent on a plain game state with CS188's test semantics (the action
chosen at the start state, and the set of states generated, must be the solution's).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from grader.cli.import_cs188 import import_cs188
from reference.cs188 import generated_states, import_file
from reference.exercises.loader import load_exercise
from reference.exercises.model import Exercise
from reference.report import Report
from reference.tree import Kind
from worker.grading import grade
from worker.harness.cs188_autograder import autograder_run
from worker.sandbox import SandboxOptions

AGENTS = Path(__file__).parent / "data" / "cs188_agents"
EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
KEY = b"cs188-contract-test-key-32-bytes"
MOVES = ("West", "East", "North", "South", "Stop")
QUESTIONS = {
    # question: (agent class, tests, the agents graded on them)
    "q2": ("MinimaxAgent", 26, ("correct_minimax", "wrong_minimax_depth_in_plies")),
    "q3": (
        "AlphaBetaAgent",
        26,
        (
            "correct_alphabeta",
            "wrong_alphabeta_generates_first",
            "wrong_alphabeta_prunes_on_equality",
        ),
    ),
    "q4": ("ExpectimaxAgent", 18, ("correct_expectimax", "wrong_expectimax_divides_by_n_plus_1")),
}


def agent_file(name: str) -> str:
    """A whole ``multiAgents.py``: the handout's part, then the agent."""
    return (AGENTS / "_base.py").read_text() + "\n\n" + (AGENTS / f"{name}.py").read_text()


# --- seventy tests in CS188's format ------------------------------------------------------


def cs188_test(rng: random.Random, agent_class: str, number: int) -> str:
    """A random GraphGameTreeTest: ``agents`` take turns to ``depth`` moves of every agent,
    with a level more below the cut-off (it must not be searched), states that end the
    game on the way and evaluations from a small range (ties happen)."""
    agents = rng.choice((2, 3))
    depth = rng.choice((1, 2)) if agents == 3 else rng.choice((1, 2, 3))
    cutoff = depth * agents
    names = (f"s{i}" for i in range(10_000))
    start = next(names)
    successors: list[str] = []
    evaluation: list[str] = []
    ends: list[str] = []
    stack = [(start, 0)]
    while stack:
        state, ply = stack.pop()
        evaluation.append(f"{state} {rng.randint(-6, 6)}")
        over = ply > 0 and rng.random() < 0.12
        if over or ply == cutoff + 1 or (ply == cutoff and rng.random() < 0.5):
            if over:
                ends.append(state)
            continue
        width = rng.randint(2, 3) if ply < 2 else rng.randint(1, 3)
        children = [next(names) for _ in range(width)]
        for move, child in zip(MOVES, children, strict=False):
            successors.append(f"{state} {move} {child}")
        stack += [(child, ply + 1) for child in reversed(children)]
    wins, loses = ends[::2], ends[1::2]
    return "\n".join(
        [
            'class: "GraphGameTreeTest"',
            f'alg: "{agent_class}"',
            f'depth: "{depth}"',
            f'num_agents: "{agents}"',
            f'start_state: "{start}"',
            f'win_states: "{" ".join(wins) or "nowhere"}"',
            f'lose_states: "{" ".join(loses) or "nowhere"}"',
            'successors: """',
            *successors,
            '"""',
            'evaluation: """',
            *evaluation,
            '"""',
            f"# test {number}",
            "",
        ]
    )


@dataclass(frozen=True)
class Imported:
    """One test: its question, its exercise, and CS188's solution worked out for it."""

    question: str
    exercise: Exercise
    action: str | None
    generated: frozenset[str]


@pytest.fixture(scope="module")
def seventy(tmp_path_factory: pytest.TempPathFactory) -> list[Imported]:
    rng = random.Random(188)
    cases = tmp_path_factory.mktemp("test_cases")
    for question, (agent_class, count, _) in QUESTIONS.items():
        (cases / question).mkdir()
        for number in range(count):
            text = cs188_test(rng, agent_class, number)
            (cases / question / f"{number}-random.test").write_text(text)
    output = tmp_path_factory.mktemp("exercises")
    result = CliRunner().invoke(import_cs188, [str(cases), "-o", str(output)])
    assert result.exit_code == 0, result.output
    assert "imported 70 of 70 game-tree tests" in result.output
    imported = []
    for question in QUESTIONS:
        for test in sorted((cases / question).glob("*.test")):
            reference = import_file(test).search()
            folder = output / f"cs188-{question}-{test.stem}"
            imported.append(
                Imported(
                    question,
                    load_exercise(folder),
                    reference.decision,
                    generated_states(reference),
                )
            )
    return imported


# --- what CS188's autograder says: the agent on its own game state ---------------------------


def cs188_passes(agent: str, case: Imported) -> bool:
    """Whether CS188's autograder passes ``agent`` on the test: its action and the set of
    states it generated (with the start state) are the solution's; an error fails."""
    contract = case.exercise.contract
    run = autograder_run(
        agent_file(agent),
        contract.agent_class or "",
        contract.depth,
        contract.agents,
        case.exercise.trees[0].tree,
    )
    return not run.error and run.action == case.action and run.generated == case.generated


def public_report(exercise: Exercise, agent: str, draw: str = "d") -> Report:
    return grade(
        exercise,
        agent_file(agent),
        "multiAgents.py",
        key=KEY,
        exercises_dir=EXERCISES,
        options=SandboxOptions(),
        draw=draw,
        public_only=True,
    )


# --- the tests -----------------------------------------------------------------------------


def test_seventy_tests_import_with_cs188s_contract(seventy: list[Imported]) -> None:
    assert len(seventy) == 70
    for case in seventy:
        contract = case.exercise.contract
        assert contract.name == "cs188"
        assert contract.agent_class == QUESTIONS[case.question][0]
        assert contract.agents in (2, 3) and contract.depth in (1, 2, 3)
        assert case.exercise.options.order_judged is False
        assert case.exercise.options.generation == "generated"


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_verdict_agrees_with_cs188_on_every_test(
    seventy: list[Imported], question: str
) -> None:
    """Where CS188 fails an agent, the grader fails it, naming nodes; where CS188 passes
    it, the grader passes it too, unless it sees a node's value wrong (which CS188 does not
    look at)."""
    agents = QUESTIONS[question][2]
    outcomes = {agent: [0, 0] for agent in agents}  # CS188 passes, CS188 fails
    for case in (case for case in seventy if case.question == question):
        for agent in agents:
            expected = cs188_passes(agent, case)
            report = public_report(case.exercise, agent)
            outcomes[agent][0 if expected else 1] += 1
            if expected:
                wrong = [
                    node.verdict
                    for node in report.cases[0].nodes or ()
                    if node.verdict.value not in ("ok", "pruned", "not_observed")
                ]
                assert report.verdict.value == "passed" or set(wrong) == {"wrong_value"}, (
                    case.exercise.slug,
                    agent,
                    report.cases[0].message,
                )
            else:
                # Failed, with the nodes or the decision that show why (or the error).
                assert report.verdict.value != "passed", (case.exercise.slug, agent)
                tree = report.cases[0]
                told = [
                    node
                    for node in tree.nodes or ()
                    if node.verdict.value not in ("ok", "pruned", "not_observed")
                ]
                wrong_move = tree.decision is not None and tree.decision.actual != case.action
                assert told or wrong_move or tree.verdict.value == "runtime_error", (
                    case.exercise.slug,
                    agent,
                    tree.message,
                )
    # The correct agents pass every test; each wrong one fails some.
    for agent, (_, failed) in outcomes.items():
        if agent.startswith("correct"):
            assert failed == 0, (agent, outcomes)
        else:
            assert failed > 0, (agent, outcomes)


def test_a_shuffling_agent_gets_the_same_verdict_at_every_grading(
    seventy: list[Imported],
) -> None:
    """An alpha-beta that tries Pacman's moves in a random order prunes what the order
    gives: on a test where some orders pass CS188 and others fail, ten gradings of the same
    submission still agree (``random`` is seeded from the draw)."""
    agent = "alphabeta_shuffled"

    def passes_with(seed: int, case: Imported) -> bool:
        random.seed(seed)
        return cs188_passes(agent, case)

    case = next(
        case
        for case in seventy
        if case.question == "q3" and len({passes_with(seed, case) for seed in range(12)}) == 2
    )
    verdicts = [
        public_report(case.exercise, agent, draw="same submission").verdict for _ in range(10)
    ]
    assert len(set(verdicts)) == 1, verdicts


def test_a_search_that_generates_every_successor_first_is_told_what_it_generated(
    seventy: list[Imported],
) -> None:
    """CS188 counts a state when generateSuccessor makes it: the children generated past a
    cut are the mistake, not a repeat of the search."""
    told = []
    for case in (case for case in seventy if case.question == "q3"):
        if cs188_passes("wrong_alphabeta_generates_first", case):
            continue
        report = public_report(case.exercise, "wrong_alphabeta_generates_first")
        verdicts = {node.verdict.value for node in report.cases[0].nodes or ()}
        assert "repeated" not in verdicts and "out_of_order" not in verdicts
        assert "extra" in verdicts, (case.exercise.slug, report.cases[0].message)
        divergence = report.cases[0].first_divergence
        assert divergence is not None and "could return at once; your search generated" in (
            divergence.message
        ), divergence
        told.append(case.exercise.slug)
    assert told


def test_hidden_trees_are_shaped_like_the_courses(seventy: list[Imported]) -> None:
    from worker.trees import cases

    three_agents = [case for case in seventy if case.exercise.contract.agents == 3]
    for case in three_agents[:3] + [c for c in three_agents if c.question == "q4"][:2]:
        opponent = Kind.CHANCE if case.question == "q4" else Kind.MIN
        for hidden in [c for c in cases(case.exercise, KEY, EXERCISES, "d") if c.hidden]:
            tree = hidden.tree
            assert tree.root.kind is Kind.MAX
            for node in tree:
                if node.is_leaf:
                    continue
                depth = tree.depth(node.name)
                assert node.kind is (Kind.MAX if depth % 3 == 0 else opponent)
                if node.kind is Kind.CHANCE:
                    assert len({edge.probability for edge in node.edges}) == 1
