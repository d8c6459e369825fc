"""Running a bench against an older commit, for its ``--baseline REV``: the same script,
this checkout's copy, run with the commit's code (a temporary git worktree of it on
``PYTHONPATH``), its figures read from the last line it prints (JSON)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def at_commit(revision: str, script: str, arguments: list[str]) -> Any:
    """What ``script`` (a bench's ``__file__``) prints last, as JSON, run with ``arguments``
    on commit ``revision``'s code; SystemExit with its output when it fails."""
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as folder:
        tree = Path(folder) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), revision],
            check=True,
        )
        try:
            done = subprocess.run(
                [sys.executable, str(Path(script).resolve()), *arguments],
                cwd=tree,
                env={**os.environ, "PYTHONPATH": str(tree)},
                capture_output=True,
                text=True,
                check=False,
            )
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True
            )
    if done.returncode != 0:
        raise SystemExit(f"the baseline {revision} failed:\n{done.stdout}{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
