"""How the sandbox runs students' code, beyond an exercise's own limits."""

from __future__ import annotations

from dataclasses import dataclass

from reference.report import OUTPUT_CAP
from worker.sandbox.forkserver import ForkServer

KIB = 1024


@dataclass(frozen=True, slots=True)
class SandboxOptions:
    """Settings of the sandbox (the per-exercise CPU, wall and memory limits are separate)."""

    allow_unconfined: bool = False
    """Run students' code even where seccomp or the user change is unavailable. Development
    only (``GRADER_SANDBOX_ALLOW_UNCONFINED``); otherwise such a machine refuses to grade."""
    pin_cpu: bool = True
    """Run the grader's thread and the child on the same CPU during a run: a game call's
    round trip then needs no wake-up across CPUs. How much that saves depends on the host
    (``bench/sandbox_roundtrip.py`` prints both): 3.4 times on one machine of this kind,
    0.9 to 1.2 times on another, where the two processes' caches were the larger cost."""
    output_limit: int = 64 * KIB
    """Bytes of the student's output kept; the rest is dropped (the run goes on)."""
    output_flood: int = OUTPUT_CAP
    """Bytes of output on one tree after which the run ends with ``output_limit``: a flood
    far beyond any debugging (output short of it never changes the verdict)."""
    request_cap: int | None = None
    """Game calls allowed per run; None: the tree host's default for the tree's size."""
    forkserver: ForkServer | None = None
    """The fork-server to use; None: this process's shared one, started on first use."""
