"""The resource limits of one child, from an exercise's :class:`Limits` to ``setrlimit``."""

from __future__ import annotations

import math
import resource
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reference.exercises.model import Limits


MIB = 1 << 20
HEADROOM_MB = 32
"""Address space on top of the student's allowance for compiling the module and for the
harness itself; the fork-server's own mappings are counted separately (its baseline)."""
OPEN_FILES = 5
"""fds 0-4: stdin is closed, 1 and 2 are /dev/null, 3 and 4 are the channel's pipes."""


@dataclass(frozen=True, slots=True)
class ChildPlan:
    """What one child may use; sent by the grader to the fork-server with each spawn."""

    cpu_seconds: int
    """RLIMIT_CPU (whole seconds: the kernel counts no finer); SIGXCPU at the limit."""
    memory_mb: int
    cpu: int | None = None
    """The CPU the child runs on (the grader's, for cheap round trips); None: any."""

    @classmethod
    def for_limits(cls, limits: Limits, cpu: int | None = None, trees: int = 1) -> ChildPlan:
        """The plan for an exercise's limits, for a child that may search up to ``trees``
        trees one after the other. Its CPU limit is then the whole session's, a backstop
        (each tree's share is watched by the trusted side, see :mod:`worker.sandbox.session`)."""
        cpu_seconds = math.ceil(limits.cpu_seconds) if trees == 1 else _session_cpu(limits, trees)
        return cls(max(1, cpu_seconds), max(1, limits.memory_mb), cpu)

    def to_wire(self) -> dict[str, Any]:
        """The plan as JSON-ready fields."""
        return asdict(self)

    @classmethod
    def from_wire(cls, fields: dict[str, Any]) -> ChildPlan:
        """The plan from :meth:`to_wire`'s fields."""
        cpu = fields.get("cpu")
        return cls(
            int(fields["cpu_seconds"]), int(fields["memory_mb"]), None if cpu is None else int(cpu)
        )


def _session_cpu(limits: Limits, trees: int) -> int:
    # A tree is stopped soon after its own limit (see CPU_CHECK_SECONDS); this is the
    # backstop, with a second of room per tree for that lag.
    return math.ceil((limits.cpu_seconds + 1) * trees)


def resource_limits(plan: ChildPlan, baseline_bytes: int) -> list[tuple[int, int, int]]:
    """(resource, soft, hard) for every rlimit the child sets on itself before it runs."""
    address_space = baseline_bytes + (plan.memory_mb + HEADROOM_MB) * MIB
    return [
        # SIGXCPU at the soft limit; SIGKILL a second later if the signal is ignored.
        (resource.RLIMIT_CPU, plan.cpu_seconds, plan.cpu_seconds + 1),
        (resource.RLIMIT_AS, address_space, address_space),
        (resource.RLIMIT_FSIZE, 0, 0),
        (resource.RLIMIT_NOFILE, OPEN_FILES, OPEN_FILES),
        # Counted per user: with 0, an unprivileged child cannot fork even if the filter let it.
        (resource.RLIMIT_NPROC, 0, 0),
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_MEMLOCK, 0, 0),
        (resource.RLIMIT_MSGQUEUE, 0, 0),
    ]


def vm_size_bytes() -> int:
    """This process's current address-space size (VmSize), the child's starting point."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")
