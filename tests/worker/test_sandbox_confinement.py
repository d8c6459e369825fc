"""What a student's process can and cannot do, checked from inside a real child."""

from __future__ import annotations

import os

import pytest

from tests.worker.test_sandbox_support import alive, leftover_processes, run, server
from worker.sandbox import SandboxVerdict

PROBE = """
import os
def max_value(game, state, alpha, beta):
    try:
{attempt}
    except BaseException as error:
        print("refused:", type(error).__name__)
    else:
        print("allowed")
    return 0
def min_value(game, state, alpha, beta):
    return 0
"""

ATTEMPTS = {
    "open /etc/passwd": "open('/etc/passwd').read()",
    "write a file": "open('/tmp/sandbox-was-here', 'w').write('x')",
    "list a directory": "os.listdir('/')",
    "a socket": "import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM)",
    "a unix socket pair": "import socket; socket.socketpair()",
    "fork": "os.fork()",
    "kill the fork-server": "os.kill(os.getppid(), 9)",
    "kill every process": "os.kill(-1, 9)",
    "a thread": "import _thread; _thread.start_new_thread(print, ('thread',))",
    "a new fd": "os.dup(4)",
    "become root": "os.setuid(0)",
    "read the environment of pid 1": "open('/proc/1/environ').read()",
    "import an unloaded module": "import sqlite3",
    "get the working directory": "os.getcwd()",
}


@pytest.mark.parametrize("attempt", list(ATTEMPTS), ids=list(ATTEMPTS))
def test_the_child_is_refused(attempt: str) -> None:
    record = run(PROBE.format(attempt="        " + ATTEMPTS[attempt]))
    assert record.outcome.verdict is SandboxVerdict.COMPLETED, record.outcome
    assert record.stdout.startswith("refused:"), record.stdout
    assert alive(server().pid)
    assert leftover_processes(server()) == []
    assert not os.path.exists("/tmp/sandbox-was-here")


def test_the_child_runs_as_nobody_with_an_empty_environment() -> None:
    facts = "print(os.getuid(), os.getgid(), os.getgroups(), sorted(os.environ))"
    record = run(PROBE.format(attempt="        " + facts))
    # Python's locale coercion sets LC_CTYPE itself; nothing of the grader's is there.
    assert record.stdout.splitlines()[0] == "65534 65534 [] ['LC_CTYPE']"


def test_threading_start_fails_cleanly() -> None:
    record = run(
        PROBE.format(attempt="        import threading; threading.Thread(target=print).start()")
    )
    assert record.stdout.startswith("refused:")


def test_exec_kills_the_child_and_nothing_else() -> None:
    record = run(PROBE.format(attempt="        os.execv('/bin/sh', ['sh', '-c', 'id'])"))
    assert record.outcome.verdict is SandboxVerdict.RUNTIME_ERROR
    assert "forbidden" in record.outcome.message
    assert alive(server().pid)
    assert leftover_processes(server()) == []


def test_memory_can_not_be_made_executable() -> None:
    record = run(
        PROBE.format(
            attempt="        import ctypes; libc = ctypes.CDLL(None); "
            "assert libc.mmap(None, 4096, 7, 0x22, -1, 0) not in (-1, 2**64 - 1)"
        )
    )
    assert record.stdout.startswith("refused:")
