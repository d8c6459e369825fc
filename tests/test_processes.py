"""A process a test starts ends with the test process, even when that one is killed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STARTER = """
import subprocess, time
from tests.processes import end_with_test
child = subprocess.Popen(["sleep", "60"], preexec_fn=end_with_test)
print(child.pid, flush=True)
time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_started_process_ends_when_the_test_process_is_killed() -> None:
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert starter.stdout is not None
    child = int(starter.stdout.readline())
    assert alive(child)
    starter.kill()
    starter.wait()
    deadline = time.monotonic() + 10
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)
