"""What the harness is told and tells: how to call a student's search on a tree
(:class:`EntrySpec`) and what came of it (:class:`StudentResult`, :class:`StudentError`).
Plain values: they cross the sandbox's wire (see :mod:`worker.sandbox.protocol` and
:mod:`worker.sandbox.reports`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from worker.harness.values import Described


@dataclass(frozen=True, slots=True)
class EntrySpec:
    """How to call the student's search on the root of one tree."""

    algorithm: str
    entry_points: tuple[str, ...]
    root_kind: str
    """"MAX", "MIN" or "CHANCE": which entry point searches the root."""
    depth_limit: int | None = None
    recursion_limit: int = 10_000
    call_lines: bool = True
    """Record the line of the student's file each entry-function call is made from (for
    the first divergence's link to the code; ``bench/callsite_cost.py`` measures it)."""
    contract: str = "textbook"
    """The course contract the file is written to (:mod:`reference.contracts`)."""
    contract_options: tuple[tuple[str, str | int | None], ...] = ()
    """The contract's settings (CS188: agent_class, agents, depth)."""
    seed: int | None = None
    """``random`` is seeded with it before the student's module is loaded, so that a
    search that shuffles or breaks ties at random gets the same verdict at each grading."""


@dataclass(frozen=True, slots=True)
class StudentError:
    """Why the student's code did not produce an answer."""

    kind: str
    """"compile" (the file does not compile) or "runtime" (an exception, or an entry point
    the loaded module does not define). In the sandbox the trusted side compiles the file
    before any child runs, so there a "compile" report is never believed."""
    message: str
    line: int | None = None
    column: int | None = None
    exception: str | None = None
    traceback: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StudentResult:
    """What the top-level call returned, or the error that stopped it."""

    value: Described | None = None
    decision: str | None = None
    decision_style: bool = False
    error: StudentError | None = None
    defines: tuple[str, ...] = field(default=())
    evaluations: Described | None = None
    """The number of static evaluations the search says it made, where the course's
    functions return it (MIT 6.034's ``(path, score, evaluations)``); None elsewhere."""
