"""Processes the tests start (Celery workers, gunicorn, Redis servers) end with the test
process that started them, even when it is killed: a worker left behind by a killed run
would take the next run's tasks from the same Redis database."""

from __future__ import annotations

import ctypes
import signal

_PR_SET_PDEATHSIG = 1
"""prctl(2): the signal the calling process gets when the thread that made it ends."""


def end_with_test() -> None:
    """A ``preexec_fn`` for ``subprocess.Popen``: the child gets SIGTERM when the test
    process ends, however it ends."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
