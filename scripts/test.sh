#!/usr/bin/env bash
# The whole test suite: set up .venv and the servers the tests use (PostgreSQL, Redis,
# Chromium; see scripts/services.sh), lint, type-check, run pytest.
#
# pytest runs in three parts, so that the suite fits in about ten minutes on two cores:
#   1. the engine's and the web app's tests, in two processes side by side (pytest-xdist);
#   2. the sandbox's tests (they hold submissions to CPU and wall-clock limits of a
#      fraction of a second), and, beside them,
#   3. the tests of the real services (PostgreSQL, Redis, Celery worker processes,
#      gunicorn, Chromium), which mostly wait on their services: a third of a core on
#      average. Part 2's report is printed once both are done.
# Neither 2 nor 3 runs beside part 1, which takes both cores.
# Arguments (test paths, -k ...) run one plain pytest with them instead.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh dev
source scripts/services.sh
# The suite starts many Python processes (test workers, Celery workers, gunicorn): let
# them keep the compiled modules rather than compile the project again in each.
unset PYTHONDONTWRITEBYTECODE
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
if [ "$#" -gt 0 ]; then
  exec .venv/bin/pytest "$@"
fi
# Every run runs even when one before it failed, so that one report shows every failure.
status=0
.venv/bin/pytest -n 2 -m "not integration" tests/reference tests/grader tests/test_*.py || status=1
mkdir -p artifacts
.venv/bin/pytest -m "not integration" tests/worker > artifacts/pytest-sandbox.log 2>&1 &
sandbox=$!
.venv/bin/pytest -m integration tests || status=1
wait "$sandbox" || status=1
echo "--- the sandbox's tests (run beside the services' tests)"
cat artifacts/pytest-sandbox.log
exit "$status"
