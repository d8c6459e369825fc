"""How far the diagnosis can be trusted: its precision on the labelled set of wrong searches
(``tests/reference/diagnosis_set``, judged by ``tests/reference/diagnosis_set/precision.py``),
beside the same figures of the diagnosis at a baseline commit, in the same run.

The baseline's ``reference`` and ``worker`` packages are taken from git (``git archive``)
into a temporary folder and run there, in a child process, on today's set and today's
library of known mistakes, so that only the diagnosis differs.

    .venv/bin/python bench/diagnosis_precision.py [--baseline 1315c91]
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BASELINE = "1315c91"
"""The last commit before the diagnosis was measured where searches differ."""
FIGURES = (
    "from tests.reference.diagnosis_set.precision import measure\n"
    "print('\\n'.join(measure().lines()))\n"
)


def _baseline(commit: str) -> list[str]:
    """The figures of the diagnosis at ``commit``, on today's set and library."""
    archive = subprocess.run(
        ["git", "archive", commit, "reference", "worker"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    with tempfile.TemporaryDirectory(prefix="diagnosis-baseline-") as folder:
        where = Path(folder)
        with tarfile.open(fileobj=io.BytesIO(archive)) as packages:
            packages.extractall(where, filter="data")
        tests = where / "tests" / "reference"
        tests.mkdir(parents=True)
        (where / "tests" / "__init__.py").touch()
        (tests / "__init__.py").touch()
        shutil.copytree(ROOT / "tests" / "reference" / "diagnosis_set", tests / "diagnosis_set")
        (where / "exercises").symlink_to(ROOT / "exercises")
        run = subprocess.run(
            [sys.executable, "-c", FIGURES],
            cwd=where,
            env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin"},
            check=True,
            capture_output=True,
            text=True,
        )
    return run.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE)
    baseline = parser.parse_args().baseline
    from tests.reference.diagnosis_set.precision import measure

    print("now:")
    for line in measure().lines():
        print(f"  {line}")
    print(f"baseline ({baseline}):")
    for line in _baseline(baseline):
        print(f"  {line}")


if __name__ == "__main__":
    main()
