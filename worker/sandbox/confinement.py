"""How a freshly forked child shuts itself in before the first byte of student code runs.

The fork-server forks each child ahead of its run (a *standby*, for the limits of the last
run asked for); the child confines itself at once and then waits for its job. The steps,
in order (each needs what the later ones take away):

1. file descriptors: the channel's two pipes become fds 3 (answers in) and 4 (requests
   out), 1 and 2 stay on /dev/null, all others are closed (the student's prints travel
   over the channel, see :mod:`worker.sandbox.child`);
2. its own process group, so the trusted side can kill everything it is;
3. an unprivileged user and group (nobody) when started as root, no supplementary groups;
4. SIGKILL when the fork-server dies, not dumpable (no ptrace, no core, no /proc peeking);
5. rlimits: CPU, address space, no file writes, no new files, no processes, no core;
6. the CPU the run will use (the grader's), set last, so that the earlier steps do not
   compete with the grader's current run;
7. no-new-privileges and the seccomp allow-list (:mod:`worker.sandbox.seccomp_filter`).

Each step is the child's own: Docker's default capabilities let the fork-server neither
set another user's rlimits nor move it to another CPU.
"""

from __future__ import annotations

import os
import resource
import signal
from dataclasses import dataclass

from worker.sandbox.limits import ChildPlan, resource_limits
from worker.sandbox.prctl import (
    PR_SET_DUMPABLE,
    PR_SET_NO_NEW_PRIVS,
    PR_SET_PDEATHSIG,
    prctl,
)
from worker.sandbox.seccomp_filter import ANSWERS_FD, REQUESTS_FD, Installer

_FD_CEILING = 1 << 20


@dataclass(frozen=True, slots=True)
class Confinement:
    """How the fork-server confines every child; fixed when the server starts."""

    user: tuple[int, int] | None
    """(uid, gid) to drop to, or None to keep the server's (development only)."""
    installer: Installer | None
    """The compiled seccomp filter, or None when unavailable (development only)."""
    baseline_bytes: int
    """The fork-server's address-space size: the child's memory limit is on top of it."""
    server_pid: int


def arrange_fds(answers_fd: int, requests_fd: int) -> None:
    """Step 1 (done first: failures can then be reported): the channel's pipes become fds 3
    and 4, 1 and 2 stay on the fork-server's /dev/null, everything else is closed."""
    # The fork-server keeps 0-2 open on /dev/null, so received fds are never below 3.
    if min(answers_fd, requests_fd) < ANSWERS_FD:
        raise OSError(f"unexpected descriptors {answers_fd}, {requests_fd}")
    # Move both out of the way first, in case one of them is already 3 or 4.
    high_answers = os.dup(answers_fd)
    high_requests = os.dup(requests_fd)
    os.dup2(high_answers, ANSWERS_FD)
    os.dup2(high_requests, REQUESTS_FD)
    os.close(0)
    os.closerange(REQUESTS_FD + 1, _FD_CEILING)


def confine(confinement: Confinement, plan: ChildPlan) -> None:
    """Confine the calling child, its fds already arranged; raises OSError if a step fails."""
    os.setpgid(0, 0)
    if confinement.user is not None:
        uid, gid = confinement.user
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
        if os.getuid() != uid or os.geteuid() != uid:
            raise OSError("the user change did not take effect")
    # Set after the user change, which clears it.
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != confinement.server_pid:
        os._exit(0)  # the fork-server died before the death signal was armed
    prctl(PR_SET_DUMPABLE, 0)
    for limit, soft, hard in resource_limits(plan, confinement.baseline_bytes):
        resource.setrlimit(limit, (soft, hard))
    if plan.cpu is not None:
        os.sched_setaffinity(0, {plan.cpu})
    if confinement.installer is not None:
        confinement.installer.install()
    else:
        prctl(PR_SET_NO_NEW_PRIVS, 1)
