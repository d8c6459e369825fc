"""The hostile corpus: every file in ``hostile/`` is a submission with its expected verdict.

A file starts with ``# expect: <verdict>``, optionally ``# limits: cpu=1 wall=0.5`` and
``# message: <regular expression>`` (searched in the outcome's message), and a line saying
what it tries. After each run the grader and its fork-server must be alive, no
file may have appeared in the temporary directory or the working directory, no process
may be left, and a correct submission must still pass.

Other processes of the machine may write in the temporary directory while a case runs, so
a new entry counts as the submission's when the students' user owns it or it has the name
the corpus writes under (``hostile-...``): a file the child made has one or the other.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from reference.exercises.model import Limits
from reference.treefile import parse_compact
from tests.worker.test_sandbox_support import (
    ALPHABETA,
    FIG52,
    NOBODY,
    QUICK,
    alive,
    leftover_processes,
    run,
    server,
)
from worker.harness.local import entry_spec
from worker.sandbox import SandboxOptions, SandboxVerdict, run_sandboxed_trees

pytestmark = pytest.mark.slow

CORPUS = sorted((Path(__file__).parent / "hostile").glob("*.py"))
KNOWN_ISSUES: dict[str, str] = {}


def header(path: Path) -> tuple[SandboxVerdict, Limits, str]:
    """The expected verdict, the limits and the message pattern named in a case's header."""
    fields = {}
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].partition(":")
        fields[key.strip()] = value.strip()
    limits = dict(part.split("=") for part in fields.get("limits", "").split())
    return (
        SandboxVerdict(fields["expect"]),
        Limits(
            cpu_seconds=float(limits.get("cpu", QUICK.cpu_seconds)),
            wall_seconds=float(limits.get("wall", QUICK.wall_seconds)),
            memory_mb=int(limits.get("memory", QUICK.memory_mb)),
        ),
        fields.get("message", ""),
    )


WATCHED = (Path(tempfile.gettempdir()), Path.cwd())


def listing() -> set[Path]:
    """What is in the places a submission might try to write."""
    return {entry for folder in WATCHED for entry in folder.iterdir()}


def created(before: set[Path]) -> list[Path]:
    """The entries made since ``before`` that a submission could have made."""
    found = []
    for entry in listing() - before:
        try:
            owner = entry.lstat().st_uid
        except FileNotFoundError:
            continue  # another process's file, already gone
        if owner == NOBODY or entry.name.startswith("hostile-"):
            found.append(entry)
    return found


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 40


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(path, marks=pytest.mark.xfail(reason=KNOWN_ISSUES[path.stem]))
        if path.stem in KNOWN_ISSUES
        else path
        for path in CORPUS
    ],
    ids=[path.stem for path in CORPUS],
)
def test_a_hostile_submission_gets_its_verdict_and_harms_nothing(path: Path) -> None:
    expected, limits, message = header(path)
    before = listing()
    record = run(path.read_text(), limits=limits)
    assert record.outcome.verdict is expected, record.outcome
    assert re.search(message, record.outcome.message), record.outcome
    assert alive(server().pid)
    assert created(before) == []
    assert leftover_processes(server()) == []
    assert run(ALPHABETA).outcome.verdict is SandboxVerdict.COMPLETED


@pytest.mark.parametrize("path", CORPUS, ids=[path.stem for path in CORPUS])
def test_a_hostile_submission_in_a_session_harms_neither_the_grader_nor_the_next_tree(
    path: Path,
) -> None:
    # As a submission is graded: tree after tree in one session (see worker.sandbox.session).
    expected, limits, message = header(path)
    before = listing()
    trees = [parse_compact(FIG52), parse_compact("MAX[ MIN[1 5] MIN[4 7] ]")]
    runs = [(tree, entry_spec("alphabeta", ("max_value", "min_value"), tree)) for tree in trees]
    options = SandboxOptions(forkserver=server())
    records = run_sandboxed_trees(runs, path.read_text(), "submission.py", limits, options=options)
    assert records[0].outcome.verdict is expected, records[0].outcome
    assert re.search(message, records[0].outcome.message), records[0].outcome
    assert all(record.outcome.verdict is not SandboxVerdict.INTERNAL_ERROR for record in records)
    assert alive(server().pid)
    assert created(before) == []
    assert leftover_processes(server()) == []
    correct = run_sandboxed_trees(runs, ALPHABETA, "submission.py", QUICK, options=options)
    assert [record.outcome.verdict for record in correct] == [SandboxVerdict.COMPLETED] * 2
