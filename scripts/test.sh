#!/usr/bin/env bash
# The whole test suite: set up .venv and the servers the tests use (PostgreSQL, Redis,
# Chromium; see scripts/services.sh), lint and type-check once (scripts/lint.sh), run pytest.
#
# pytest runs four times, so that no timing test shares the machine with more than it can
# bear, and the service tests' waiting is shared with work that needs no quiet machine:
#   1. the engine's and the web app's tests, in two processes side by side (pytest-xdist);
#   2. the sandbox's tests, alone: they hold submissions to CPU and wall-clock limits of a
#      fraction of a second;
#   3. the tests of the real services (PostgreSQL, Redis, Celery worker processes,
#      gunicorn, Chromium), which mostly wait on those processes; beside them, niced,
#   4. the exhaustive set (marked `exhaustive`: every implementation of the library graded
#      through the sandbox; by default one correct and one wrong of each family are), whose
#      verdicts come from CPU accounting and whose real-time limits are seconds; its report
#      is printed after the third's.
#
#   ./scripts/test.sh --quick     the day-to-day loop: the engine's and the web app's tests
#                                 and the sandbox's, without the slow, browser and service
#                                 tests, no lint (see the README for measured times)
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
  exec .venv/bin/pytest -n 2 -m "not integration and not browser and not slow and not exhaustive" \
    tests/reference tests/grader tests/worker tests/test_*.py "$@"
fi
if [ "$#" -gt 0 ]; then
  exec .venv/bin/pytest "$@"
fi
scripts/lint.sh
# Every run runs even when one before it failed, so that one report shows every failure.
status=0
.venv/bin/pytest -n 2 -m "not integration and not exhaustive" \
  tests/reference tests/grader tests/test_*.py || status=1
.venv/bin/pytest -m "not integration and not exhaustive" tests/worker || status=1
exhaustive_log="$(mktemp)"
# A background job of this shell ignores SIGINT and SIGQUIT, and so do the sandboxes it
# starts: the sandbox's signal tests are in run 2, in the foreground, never in this set.
nice -n 10 .venv/bin/pytest -p no:cacheprovider -m "exhaustive and not integration" \
  tests/reference tests/grader tests/worker >"$exhaustive_log" 2>&1 &
exhaustive=$!
.venv/bin/pytest -m integration tests || status=1
wait "$exhaustive" || status=1
echo "--- the exhaustive set (run beside the service tests) ---"
cat "$exhaustive_log"
rm -f "$exhaustive_log"
exit "$status"
