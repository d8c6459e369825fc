"""Running a student's search in a confined process and serving it the tree.

>>> record = run_sandboxed(tree, source, "submission.py", spec, limits)   # doctest: +SKIP
>>> record.outcome.verdict, record.observed.visited(), record.stdout       # doctest: +SKIP

The trusted side (this process) keeps the tree; the student's code runs in a child of a
warm fork-server, confined by a user change, rlimits and a seccomp allow-list, and asks
about the tree one game call at a time over two pipes (requests out, answers in). The parts:
:mod:`~worker.sandbox.forkserver`, :mod:`~worker.sandbox.confinement`,
:mod:`~worker.sandbox.seccomp_filter`, :mod:`~worker.sandbox.protocol`,
:mod:`~worker.sandbox.treeserver`, :mod:`~worker.sandbox.outcome`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from worker.sandbox.compiled import compile_check
    from worker.sandbox.forkserver import (
        ChildExit,
        ForkServer,
        SandboxUnavailable,
        shared_forkserver,
    )
    from worker.sandbox.options import SandboxOptions
    from worker.sandbox.outcome import (
        RunRecord,
        SandboxOutcome,
        SandboxVerdict,
        Usage,
    )
    from worker.sandbox.run import run_sandboxed, run_sandboxed_trees

# Imported on first use: the fork-server imports this package for the child's modules, and
# every module it holds is copied, page by page, into each student's process.
_HOMES = {
    "compile_check": "worker.sandbox.compiled",
    "ChildExit": "worker.sandbox.forkserver",
    "ForkServer": "worker.sandbox.forkserver",
    "SandboxUnavailable": "worker.sandbox.forkserver",
    "shared_forkserver": "worker.sandbox.forkserver",
    "SandboxOptions": "worker.sandbox.options",
    "SandboxOutcome": "worker.sandbox.outcome",
    "RunRecord": "worker.sandbox.outcome",
    "Usage": "worker.sandbox.outcome",
    "SandboxVerdict": "worker.sandbox.outcome",
    "run_sandboxed": "worker.sandbox.run",
    "run_sandboxed_trees": "worker.sandbox.run",
}

__all__ = [
    "ChildExit",
    "ForkServer",
    "RunRecord",
    "SandboxOptions",
    "SandboxOutcome",
    "SandboxUnavailable",
    "SandboxVerdict",
    "Usage",
    "compile_check",
    "run_sandboxed",
    "run_sandboxed_trees",
    "shared_forkserver",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'worker.sandbox' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
