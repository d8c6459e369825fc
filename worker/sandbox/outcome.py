"""The verdict of a sandboxed run and what it cost, from what the trusted side saw.

The verdict is decided on the trusted side only, from the serving loop's ending and the exit
status the fork-server reported; the child's report is used for the student's own errors.
Every way a child ends once the student's code may have run in it is the submission's
outcome; ``internal_error`` is kept for what the trusted side can prove is its own fault:
its own exception, or a child that never ran any of the student's code ending before it
started (the session tries such a tree once more in a new child).
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from reference.observed import Observed
from reference.report import MIB, OUTPUT_CAP, RunVerdict
from worker.sandbox.forkserver import ChildExit
from worker.sandbox.treeserver import Ending, Served

if TYPE_CHECKING:
    from reference.exercises.model import Limits


class SandboxVerdict(StrEnum):
    """How a sandboxed run on one tree ended: ``completed`` (then the feedback judges the
    search, and the report says ``passed`` or ``failed``), or why it was stopped, which is
    the report's verdict of that tree (:attr:`run_verdict`, the same word)."""

    COMPLETED = "completed"
    COMPILE_ERROR = RunVerdict.COMPILE_ERROR.value
    RUNTIME_ERROR = RunVerdict.RUNTIME_ERROR.value
    TIME_LIMIT = RunVerdict.TIME_LIMIT.value
    MEMORY_LIMIT = RunVerdict.MEMORY_LIMIT.value
    OUTPUT_LIMIT = RunVerdict.OUTPUT_LIMIT.value
    PROTOCOL_VIOLATION = RunVerdict.PROTOCOL_VIOLATION.value
    INTERNAL_ERROR = RunVerdict.INTERNAL_ERROR.value

    @property
    def run_verdict(self) -> RunVerdict | None:
        """The report's verdict of a tree whose run ended so; None for ``completed``, whose
        verdict the judgement of its search decides (see :meth:`judged`)."""
        return None if self is SandboxVerdict.COMPLETED else RunVerdict(self.value)

    def judged(self, perfect: bool) -> RunVerdict:
        """The report's verdict of a tree whose run ended so, its search judged ``perfect``
        or not when it completed."""
        verdict = self.run_verdict
        if verdict is not None:
            return verdict
        return RunVerdict.PASSED if perfect else RunVerdict.FAILED

    @property
    def ends_run(self) -> bool:
        """Whether the submission's remaining trees are not run after this one
        (:attr:`RunVerdict.ends_run`)."""
        verdict = self.run_verdict
        return verdict is not None and verdict.ends_run


@dataclass(frozen=True, slots=True)
class SandboxOutcome:
    """The verdict with what the student needs to read: a message and, for their own errors,
    the position (compile errors) or exception and traceback lines of their file."""

    verdict: SandboxVerdict
    message: str = ""
    line: int | None = None
    column: int | None = None
    exception: str | None = None
    traceback: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Usage:
    """What the run cost."""

    cpu_ms: int
    wall_ms: int
    max_rss_kb: int


@dataclass(frozen=True, slots=True)
class RunRecord:
    """Everything one sandboxed run of a student's code on one tree produced."""

    observed: Observed
    outcome: SandboxOutcome
    stdout: str
    usage: Usage
    stdout_truncated: bool = False
    stdout_total: int = 0
    """Bytes the student's code printed on this tree, kept or not."""


_CRASHES = {signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGABRT, signal.SIGFPE}


def decide(
    served: Served, child: ChildExit, limits: Limits, *, budget_cut: bool = False
) -> SandboxOutcome:
    """The outcome of a run that ended as ``served`` says, the child as ``child`` says;
    ``budget_cut``: its deadline was what was left of the submission's real-time budget."""
    ending = served.ending
    if ending is Ending.REPORTED:
        return _reported(served, limits)
    if ending is Ending.VIOLATION:
        return SandboxOutcome(SandboxVerdict.PROTOCOL_VIOLATION, served.message)
    if ending is Ending.OUTPUT_FLOOD:
        return SandboxOutcome(
            SandboxVerdict.OUTPUT_LIMIT,
            f"your code printed more than {OUTPUT_CAP // MIB} MiB on one tree, "
            "far more than any debugging needs",
        )
    if ending is Ending.FAILURE:
        return SandboxOutcome(SandboxVerdict.INTERNAL_ERROR, served.message)
    if ending is Ending.CPU_LIMIT:
        return _cpu_limit(limits)
    if ending is Ending.IDLE:
        return SandboxOutcome(
            SandboxVerdict.TIME_LIMIT,
            f"your code spent more than {limits.idle_seconds:g} s of real time neither "
            "computing nor waiting for the game (sleeping or blocked)",
        )
    if ending is Ending.CLOSED and not served.started:
        if served.fresh:
            # It ended while it waited for its job: nothing of the student's had run.
            return SandboxOutcome(
                SandboxVerdict.INTERNAL_ERROR, "the student's process ended before it started"
            )
        # A child kept from an earlier tree has run the student's code, which may have left
        # anything behind (a patched harness, a signal handler).
        return SandboxOutcome(
            SandboxVerdict.RUNTIME_ERROR,
            "your code's process ended between two trees, while it waited for the next "
            "(something your code left behind on the tree before)",
        )
    cpu_out = child.cpu_seconds >= limits.cpu_seconds
    if ending is Ending.TIMEOUT:
        if cpu_out:
            return _cpu_limit(limits)
        if budget_cut:
            return SandboxOutcome(
                SandboxVerdict.TIME_LIMIT,
                f"the submission's time budget ({limits.submission_budget:g} s of real time "
                "over all its trees) was spent",
            )
        return SandboxOutcome(
            SandboxVerdict.TIME_LIMIT,
            f"your code took more than {limits.wall_seconds:g} s of real time "
            "(waiting, sleeping or blocked)",
        )
    return _ended(child, cpu_out, limits)


def _reported(served: Served, limits: Limits) -> SandboxOutcome:
    result = served.result
    assert result is not None
    error = result.error
    if error is None:
        return SandboxOutcome(SandboxVerdict.COMPLETED)
    if error.kind == "compile":
        # The trusted side compiled the same source before any child ran (see
        # worker.sandbox.compiled): a compile error from the child is not to be believed.
        return SandboxOutcome(
            SandboxVerdict.PROTOCOL_VIOLATION, "a compile error reported for a file that compiles"
        )
    verdict = SandboxVerdict.RUNTIME_ERROR
    message = error.message
    if error.exception == "MemoryError":
        verdict = SandboxVerdict.MEMORY_LIMIT
        message = f"your code ran out of memory (the limit is {limits.memory_mb} MB)"
    return SandboxOutcome(verdict, message, error.line, None, error.exception, error.traceback)


def _cpu_limit(limits: Limits) -> SandboxOutcome:
    return SandboxOutcome(
        SandboxVerdict.TIME_LIMIT, f"your code used more than {limits.cpu_seconds:g} s of CPU time"
    )


def _ended(child: ChildExit, cpu_out: bool, limits: Limits) -> SandboxOutcome:
    """The child closed the channel without a report: decide from how it ended. Whatever
    ended it, the student's code had run in it: it is the submission's outcome."""
    status = child.status
    if child.killed:
        return SandboxOutcome(
            SandboxVerdict.RUNTIME_ERROR, "your code closed its connection to the game and went on"
        )
    if os.WIFEXITED(status):
        return SandboxOutcome(
            SandboxVerdict.RUNTIME_ERROR,
            f"your code ended the process (exit status {os.WEXITSTATUS(status)}) "
            "before the search returned",
        )
    if not os.WIFSIGNALED(status):
        return SandboxOutcome(
            SandboxVerdict.RUNTIME_ERROR, f"your code's process ended (status {status})"
        )
    number = os.WTERMSIG(status)
    if number == signal.SIGXCPU or (number == signal.SIGKILL and cpu_out):
        return _cpu_limit(limits)
    if number == signal.SIGSYS:
        return SandboxOutcome(
            SandboxVerdict.RUNTIME_ERROR,
            "your code attempted a forbidden operation and was stopped",
        )
    if number in _CRASHES:
        return SandboxOutcome(
            SandboxVerdict.RUNTIME_ERROR,
            f"the process crashed ({signal_name(number)}); very deep recursion "
            "or running out of memory can do this",
        )
    if number == signal.SIGKILL:
        return SandboxOutcome(
            SandboxVerdict.MEMORY_LIMIT, "the system stopped your code, probably for lack of memory"
        )
    return SandboxOutcome(
        SandboxVerdict.RUNTIME_ERROR,
        f"your code's process was ended by signal {signal_name(number)}",
    )


def signal_name(number: int) -> str:
    """``SIGTRAP`` and the like; the number for a signal Python has no name for."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
