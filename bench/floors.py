"""What no sandbox of this design can go below: shared by the benchmarks that set a
grading's cost against its floor.

The design serves the tree one message per game call, so every call that the child cannot
answer from told facts is a round trip between two processes on one CPU. The cheapest such
round trip is two bare processes passing a few bytes over the same pipes; a grading can
cost no less than its in-process work (the search and its judgement, with no sandbox) plus
that round trip once for each such call.
"""

from __future__ import annotations

import os
import time

from reference.observed import Observed, Visit
from worker.sandbox.protocol import TOLD_METHODS


def bare_pipe_round_trip(calls: int) -> float:
    """Seconds per round trip between two bare processes on one CPU over two pipes."""
    answers_in, answers_out = os.pipe()
    requests_in, requests_out = os.pipe()
    previous = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(previous)})
    try:
        pid = os.fork()
        if pid == 0:
            for _ in range(calls):
                os.write(requests_out, b"\x12\x00\x00\x00?t0123456789abcdef")
                os.read(answers_in, 65536)
            os._exit(0)
        start = time.perf_counter()
        for _ in range(calls):
            os.read(requests_in, 65536)
            os.write(answers_out, b"\x03\x00\x00\x00vT")
        elapsed = time.perf_counter() - start
        os.waitpid(pid, 0)
    finally:
        os.sched_setaffinity(0, previous)
        for fd in (answers_in, answers_out, requests_in, requests_out):
            os.close(fd)
    return elapsed / calls


def asked_calls(observed: Observed) -> int:
    """The game calls of a trace that must cross to the trusted side: every visit by a
    method the child may not answer from told facts (``utility``, ``actions``, ...)."""
    return sum(
        1 for event in observed.events if type(event) is Visit and event.method not in TOLD_METHODS
    )
