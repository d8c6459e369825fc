"""Whether the ``cs188`` contract grades CS188-style agents as CS188's own autograder does,
on CS188's published game-tree tests.

Every ``GraphGameTreeTest`` under PATH that has its ``.solution`` beside it is imported with
``grader exercises import-cs188``; then each agent of ``tests/worker/data/cs188_agents`` of
the test's agent class is graded twice:

* as CS188's autograder does: the agent runs on a plain CS188-like game state and passes
  when the action it returns at the start state is the solution's and the set of states it
  touched is the solution's. Newer solution files list the states ``generated`` (the start
  state and every successor asked for); older ones (CS188's 2014 autograder) list the states
  ``expanded``: every state whose ``getLegalActions``, ``generateSuccessor`` or ``getScore``
  was called. The verdict follows the file's key; the other rule's verdict is shown when it
  differs.
* by the project: :func:`worker.grading.grade` on the imported exercise's public tree.

Agreement: where CS188 fails the agent, the project must not pass it; where CS188 passes it,
the project must pass it, or fail it only with ``wrong_value`` node verdicts (values CS188
never looks at).

When the importer refuses a test because of its ``.solution`` file, the ``.test`` file is
imported again alone (so that grading can still be compared) and the refusal is reported.

    .venv/bin/python bench/cs188_agreement.py PATH_TO_TEST_CASES
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("GRADER_ENV", "development")

from click.testing import CliRunner  # noqa: E402

from grader.cli.import_cs188 import import_cs188  # noqa: E402
from reference.cs188 import (  # noqa: E402
    GAME_TREE_CLASS,
    Cs188Solution,
    class_of,
    generated_states,
    import_file,
    import_solution,
)
from reference.exercises.loader import load_exercise  # noqa: E402
from reference.exercises.model import Exercise  # noqa: E402
from reference.report import Report  # noqa: E402
from worker.grading import grade  # noqa: E402
from worker.harness.cs188_autograder import autograder_run  # noqa: E402
from worker.sandbox import SandboxOptions  # noqa: E402

AGENTS = ROOT / "tests" / "worker" / "data" / "cs188_agents"
EXERCISES = ROOT / "exercises"
KEY = b"cs188-agreement-bench-key-32byte"
AGENTS_OF: dict[str, tuple[str, ...]] = {
    "MinimaxAgent": ("correct_minimax", "wrong_minimax_depth_in_plies"),
    "AlphaBetaAgent": (
        "correct_alphabeta",
        "wrong_alphabeta_generates_first",
        "wrong_alphabeta_prunes_on_equality",
    ),
    "ExpectimaxAgent": ("correct_expectimax", "wrong_expectimax_divides_by_n_plus_1"),
}
NOT_WRONG = ("ok", "pruned", "not_observed")
Rule = Literal["generated", "expanded"]


def agent_file(name: str) -> str:
    """A whole ``multiAgents.py``: the handout's part, then the agent."""
    return (AGENTS / "_base.py").read_text() + "\n\n" + (AGENTS / f"{name}.py").read_text()


# --- CS188's side: the agent on a plain game state -----------------------------------------


@dataclass(frozen=True)
class Cs188Run:
    """The agent's action (None: it raised) and the states it touched, by either count."""

    action: str | None
    generated: frozenset[str]
    expanded: frozenset[str]
    error: str = ""

    def passes(self, solution: Cs188Solution, rule: Rule) -> bool:
        touched = self.generated if rule == "generated" else self.expanded
        return self.action == solution.action and touched == frozenset(solution.generated)

    def why(self, solution: Cs188Solution, rule: Rule) -> str:
        if self.error:
            return f"raised {self.error}"
        touched = self.generated if rule == "generated" else self.expanded
        reasons = []
        if self.action != solution.action:
            reasons.append(f"move {self.action!r}, solution {solution.action!r}")
        extra, missing = touched - set(solution.generated), set(solution.generated) - touched
        if extra:
            reasons.append(f"{rule} also {' '.join(sorted(extra))}")
        if missing:
            reasons.append(f"not {rule} {' '.join(sorted(missing))}")
        return "; ".join(reasons)


def cs188_run(agent: str, exercise: Exercise) -> Cs188Run:
    contract = exercise.contract
    run = autograder_run(
        agent_file(agent),
        contract.agent_class or "",
        contract.depth,
        contract.agents,
        exercise.trees[0].tree,
    )
    return Cs188Run(run.action, run.generated, run.expanded, run.error)


def read_solution(path: Path, scratch: Path) -> tuple[Cs188Solution, Rule]:
    """The ``.solution`` file, read with the project's reader; an older file's ``expanded``
    key is read as its ``generated`` list (from a copy), with CS188's 2014 rule."""
    text = path.read_text(encoding="utf-8")
    if re.search(r"^\s*generated\s*:", text, re.MULTILINE):
        return import_solution(path), "generated"
    copy = scratch / path.name
    copy.write_text(re.sub(r"^(\s*)expanded(\s*:)", r"\1generated\2", text, flags=re.MULTILINE))
    return import_solution(copy), "expanded"


# --- the project's side --------------------------------------------------------------------


def import_tests(tests: list[Path], base: Path, output: Path) -> tuple[dict[str, Path], str]:
    """Run ``import-cs188`` on ``base``: the exercise folder of each imported test (by its
    path below ``base``), and the importer's standard error."""
    result = CliRunner().invoke(import_cs188, [str(base), "-o", str(output)])
    folders: dict[str, Path] = {}
    for line in result.stdout.splitlines():
        name, arrow, rest = line.partition(" -> ")
        if arrow:
            folders[name] = Path(rest.split(": ", 1)[0])
    return folders, result.stderr


def project_report(exercise: Exercise, agent: str) -> Report:
    return grade(
        exercise,
        agent_file(agent),
        "multiAgents.py",
        key=KEY,
        exercises_dir=EXERCISES,
        options=SandboxOptions(),
        draw="bench",
        public_only=True,
    )


def wrong_nodes(report: Report) -> list[tuple[str, str]]:
    return [
        (node.node, node.verdict.value)
        for node in report.cases[0].nodes or ()
        if node.verdict.value not in NOT_WRONG
    ]


def project_story(report: Report) -> str:
    """The project's verdict, and for a failure what it names first."""
    case = report.cases[0]
    text = report.verdict.value
    if report.verdict.value == "passed":
        return text
    wrong = wrong_nodes(report)
    if wrong:
        shown = ", ".join(f"({node}, {verdict})" for node, verdict in wrong[:4])
        more = f" +{len(wrong) - 4}" if len(wrong) > 4 else ""
        text += f" [{shown}{more}]"
    if case.decision is not None and case.decision.expected != case.decision.actual:
        text += f" decision {case.decision.actual!r} (expected {case.decision.expected!r})"
    if case.first_divergence is not None:
        text += f" | divergence at {case.first_divergence.node}: {case.first_divergence.message}"
    elif case.message and not wrong:
        text += f" | {case.message}"
    return text


def agrees(cs188_passes: bool, report: Report) -> bool:
    if not cs188_passes:
        return report.verdict.value != "passed"
    if report.verdict.value == "passed":
        return True
    wrong = wrong_nodes(report)
    return (
        report.cases[0].verdict.value == "failed"
        and bool(wrong)
        and all(verdict == "wrong_value" for _, verdict in wrong)
    )


# --- the run -------------------------------------------------------------------------------


@dataclass
class Tally:
    """One question's lines; ``unsound`` counts those on tests whose solution the reference
    search does not reproduce (the importer's own check refuses such a test)."""

    total: int = 0
    agreed: int = 0
    agreed_other_rule: int = 0
    unsound: int = 0
    unsound_agreed: int = 0
    disagreements: list[str] = field(default_factory=list)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="a CS188 test_cases folder")
    args = parser.parse_args()
    base: Path = args.path.resolve()
    tests = [
        test
        for test in sorted(base.rglob("*.test"))
        if test.with_suffix(".solution").is_file()
        and class_of(test.read_text(encoding="utf-8", errors="replace")) == GAME_TREE_CLASS
    ]
    if not tests:
        sys.exit(f"no {GAME_TREE_CLASS} with a .solution file under {base}")
    tallies: dict[str, Tally] = {}
    refusals: list[str] = []
    with tempfile.TemporaryDirectory(prefix="cs188-agreement-") as temporary:
        scratch = Path(temporary)
        folders, errors = import_tests(tests, base, scratch / "exercises")
        refused = [t for t in tests if t.relative_to(base).as_posix() not in folders]
        if refused:
            print(f"import-cs188 refused {len(refused)} of {len(tests)} tests:")
            for line in errors.splitlines():
                print(f"  {line}")
            bare = scratch / "bare"
            for test in refused:
                copy = bare / test.relative_to(base)
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(test, copy)
            again, errors = import_tests(refused, bare, scratch / "exercises-bare")
            folders.update(again)
            for line in errors.splitlines():
                print(f"  (without the .solution) {line}")
            print(f"re-imported {len(again)} of them without their .solution file\n")
        for test in tests:
            name = test.relative_to(base).as_posix()
            question = test.parent.name
            solutions = scratch / "solutions" / name
            solutions.mkdir(parents=True)
            solution, rule = read_solution(test.with_suffix(".solution"), solutions)
            if name not in folders:
                refusals.append(f"{name}: not imported at all")
                print(f"{name}: NOT IMPORTED")
                continue
            exercise = load_exercise(folders[name])
            reference = import_file(test).search()
            ours = generated_states(reference)
            notes: list[str] = []
            if reference.decision != solution.action:
                notes.append(f"decision {reference.decision!r} vs {solution.action!r}")
            if ours != frozenset(solution.generated):
                notes.append(
                    f"generates {' '.join(sorted(ours ^ set(solution.generated)))} differently"
                )
            if test in refused:
                refusals.append(f"{name}: refused because of its .solution ({rule} key)")
            print(
                f"{name}: {exercise.contract.agent_class}, depth {exercise.contract.depth}, "
                f"{exercise.contract.agents} agents, solution {solution.action!r} "
                f"({rule}); reference {'matches' if not notes else '; '.join(notes)}"
            )
            tally = tallies.setdefault(question, Tally())
            other: Rule = "generated" if rule == "expanded" else "expanded"
            for agent in AGENTS_OF[exercise.contract.agent_class or ""]:
                run = cs188_run(agent, exercise)
                passes = run.passes(solution, rule)
                passes_other = run.passes(solution, other)
                report = project_report(exercise, agent)
                ok = agrees(passes, report)
                tally.total += 1
                tally.agreed += ok
                tally.agreed_other_rule += agrees(passes_other, report)
                if notes:
                    tally.unsound += 1
                    tally.unsound_agreed += ok
                cs188 = "pass" if passes else f"FAIL ({run.why(solution, rule)})"
                if passes_other != passes:
                    cs188 += f" [{other} rule: {'pass' if passes_other else 'FAIL'}]"
                line = (
                    f"  {agent:38} CS188 {cs188} | project {project_story(report)}"
                    f" => {'agree' if ok else 'DISAGREE'}"
                )
                print(line)
                if not ok:
                    unsound = " [solution not reproduced by the reference]" if notes else ""
                    tally.disagreements.append(f"{name}{unsound}: {line.strip()}")
    print("\nsummary (CS188 verdict by the rule of each solution file's key)")
    for question, tally in sorted(tallies.items()):
        sound = tally.total - tally.unsound
        print(
            f"  {question}: {tally.agreed}/{tally.total} agree "
            f"({tally.agreed_other_rule}/{tally.total} with the other rule); on tests whose "
            f"solution the reference reproduces: {tally.agreed - tally.unsound_agreed}/{sound}"
        )
    total = sum(t.total for t in tallies.values())
    agreed = sum(t.agreed for t in tallies.values())
    print(f"  all: {agreed}/{total} agree")
    if refusals:
        print(f"\nimport problems ({len(refusals)}):")
        for refusal in refusals:
            print(f"  {refusal}")
    disagreements = [d for t in tallies.values() for d in t.disagreements]
    print(f"\ndisagreements ({len(disagreements)}):")
    for disagreement in disagreements:
        print(f"  {disagreement}")


if __name__ == "__main__":
    main()
