#!/usr/bin/env bash
# The whole test suite: set up .venv and the servers the tests use (PostgreSQL, Redis,
# Chromium; see scripts/services.sh), lint and type-check once (scripts/lint.sh), run pytest.
#
# pytest runs three times, one run after the other, so that the suite fits in eight minutes
# on two cores without a timing test sharing the machine:
#   1. the engine's and the web app's tests, in two processes side by side (pytest-xdist);
#   2. the sandbox's tests, alone: they hold submissions to CPU and wall-clock limits of a
#      fraction of a second;
#   3. the tests of the real services (PostgreSQL, Redis, Celery worker processes,
#      gunicorn, Chromium), alone: they measure queues and lanes in real time.
#
#   ./scripts/test.sh --quick     the day-to-day loop: the engine's and the web app's tests
#                                 and the sandbox's, without the slow, browser and service
#                                 tests, no lint (under two minutes on two cores)
#   ./scripts/test.sh ARGS...     one plain pytest with ARGS (test paths, -k ...), no lint
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh dev
source scripts/services.sh
# The suite starts many Python processes (test workers, Celery workers, gunicorn): let
# them keep the compiled modules rather than compile the project again in each.
unset PYTHONDONTWRITEBYTECODE
if [ "${1:-}" = "--quick" ]; then
  shift
  exec .venv/bin/pytest -n 2 -m "not integration and not browser and not slow" \
    tests/reference tests/grader tests/worker tests/test_*.py "$@"
fi
if [ "$#" -gt 0 ]; then
  exec .venv/bin/pytest "$@"
fi
scripts/lint.sh
# Every run runs even when one before it failed, so that one report shows every failure.
status=0
.venv/bin/pytest -n 2 -m "not integration" tests/reference tests/grader tests/test_*.py || status=1
.venv/bin/pytest -m "not integration" tests/worker || status=1
.venv/bin/pytest -m integration tests || status=1
exit "$status"
