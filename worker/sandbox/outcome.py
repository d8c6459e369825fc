"""The verdict of a sandboxed run and what it cost, from what the trusted side saw.

The verdict is decided on the trusted side only, from the serving loop's ending and the exit
status the fork-server reported; the child's report is used for the student's own errors.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from reference.observed import Observed
from worker.sandbox.forkserver import ChildExit
from worker.sandbox.treeserver import Ending, Served

if TYPE_CHECKING:
    from reference.exercises.model import Limits


class Verdict(StrEnum):
    """How a run ended."""

    COMPLETED = "completed"
    COMPILE_ERROR = "compile_error"
    RUNTIME_ERROR = "runtime_error"
    TIME_LIMIT = "time_limit"
    MEMORY_LIMIT = "memory_limit"
    OUTPUT_LIMIT = "output_limit"
    PROTOCOL_VIOLATION = "protocol_violation"
    INTERNAL_ERROR = "internal_error"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The verdict with what the student needs to read: a message and, for their own errors,
    the position (compile errors) or exception and traceback lines of their file."""

    verdict: Verdict
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
    outcome: Outcome
    stdout: str
    usage: Usage
    stdout_truncated: bool = False


_CRASHES = {signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGABRT, signal.SIGFPE}


def decide(served: Served, child: ChildExit, limits: Limits) -> Outcome:
    """The outcome of a run that ended as ``served`` says, the child as ``child`` says."""
    ending = served.ending
    if ending is Ending.REPORTED:
        return _reported(served, limits)
    if ending is Ending.VIOLATION:
        return Outcome(Verdict.PROTOCOL_VIOLATION, served.message)
    if ending is Ending.OUTPUT_FLOOD:
        return Outcome(Verdict.OUTPUT_LIMIT, "your code printed far too much output")
    if ending is Ending.FAILURE:
        return Outcome(Verdict.INTERNAL_ERROR, served.message)
    if ending is Ending.CPU_LIMIT:
        return _cpu_limit(limits)
    if ending is Ending.CLOSED and not served.started:
        # It ended while it waited for its job: nothing of the student's had run.
        return Outcome(Verdict.INTERNAL_ERROR, "the student's process ended before it started")
    cpu_out = child.cpu_seconds >= limits.cpu_seconds
    if ending is Ending.TIMEOUT:
        if cpu_out:
            return _cpu_limit(limits)
        return Outcome(
            Verdict.TIME_LIMIT,
            f"your code took more than {limits.wall_seconds:g} s of real time "
            "(waiting, sleeping or blocked)",
        )
    return _ended(child, cpu_out, limits)


def _reported(served: Served, limits: Limits) -> Outcome:
    result = served.result
    assert result is not None
    error = result.error
    if error is None:
        return Outcome(Verdict.COMPLETED)
    if error.kind == "compile":
        return Outcome(Verdict.COMPILE_ERROR, error.message, error.line, error.column)
    verdict = Verdict.RUNTIME_ERROR
    message = error.message
    if error.exception == "MemoryError":
        verdict = Verdict.MEMORY_LIMIT
        message = f"your code ran out of memory (the limit is {limits.memory_mb} MB)"
    return Outcome(verdict, message, error.line, None, error.exception, error.traceback)


def _cpu_limit(limits: Limits) -> Outcome:
    return Outcome(
        Verdict.TIME_LIMIT, f"your code used more than {limits.cpu_seconds:g} s of CPU time"
    )


def _ended(child: ChildExit, cpu_out: bool, limits: Limits) -> Outcome:
    """The child closed the channel without a report: decide from how it ended."""
    status = child.status
    if child.killed:
        return Outcome(
            Verdict.RUNTIME_ERROR, "your code closed its connection to the game and went on"
        )
    if os.WIFEXITED(status):
        return Outcome(
            Verdict.RUNTIME_ERROR,
            f"your code ended the process (exit status {os.WEXITSTATUS(status)}) "
            "before the search returned",
        )
    number = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    if number == signal.SIGXCPU or (number == signal.SIGKILL and cpu_out):
        return _cpu_limit(limits)
    if number == signal.SIGSYS:
        return Outcome(
            Verdict.RUNTIME_ERROR, "your code attempted a forbidden operation and was stopped"
        )
    if number in _CRASHES:
        return Outcome(
            Verdict.RUNTIME_ERROR,
            f"the process crashed ({signal.Signals(number).name}); very deep recursion "
            "or running out of memory can do this",
        )
    if number == signal.SIGKILL:
        return Outcome(
            Verdict.MEMORY_LIMIT, "the system stopped your code, probably for lack of memory"
        )
    return Outcome(Verdict.INTERNAL_ERROR, f"the student's process ended with status {status}")
