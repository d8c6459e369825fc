"""How a run's ending becomes its verdict, for endings no real child can be made to show
on demand (the sandbox tests run real children for every other one)."""

from __future__ import annotations

import signal

from reference.exercises.model import Limits
from reference.verdict_words import WORDS
from worker.sandbox import ChildExit, SandboxVerdict
from worker.sandbox.outcome import decide
from worker.sandbox.treeserver import Ending, Served

LIMITS = Limits(cpu_seconds=1, wall_seconds=2, memory_mb=64)


def test_a_fresh_child_ending_before_it_started_is_the_graders_fault() -> None:
    served = Served(Ending.CLOSED, started=False, fresh=True)
    outcome = decide(served, ChildExit(0, False, 0.0, 0), LIMITS)
    assert outcome.verdict is SandboxVerdict.INTERNAL_ERROR


def test_a_kept_child_ending_before_it_started_is_the_submissions() -> None:
    # It searched an earlier tree: the student's code has run in it.
    served = Served(Ending.CLOSED, started=False, fresh=False)
    outcome = decide(served, ChildExit(0, False, 0.0, 0), LIMITS)
    assert outcome.verdict is SandboxVerdict.RUNTIME_ERROR
    assert "between two trees" in outcome.message


def test_a_signal_without_a_name_is_named_by_its_number() -> None:
    number = signal.SIGRTMIN + 6
    served = Served(Ending.CLOSED, started=True)
    outcome = decide(served, ChildExit(number, False, 0.0, 0), LIMITS)
    assert outcome.verdict is SandboxVerdict.RUNTIME_ERROR
    assert outcome.message == f"your code's process was ended by signal {number}"


def test_every_sandbox_verdict_has_its_word() -> None:
    assert set(SandboxVerdict) <= WORDS.keys()
