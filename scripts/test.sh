#!/usr/bin/env bash
# The whole test suite: set up .venv and the servers the tests use (PostgreSQL, Redis,
# Chromium; see scripts/services.sh), lint and type-check once (scripts/lint.sh), run pytest.
#
# pytest runs twice, at the same time:
#   - the tests of the real services (PostgreSQL, Redis, Celery worker processes, gunicorn,
#     Chromium; marked `integration`), in the background from the start, in two processes
#     (one test file each at a time): they mostly wait on those processes, each process on
#     Redis databases of its own (three below the others', three more for the second); their
#     report is printed at the end;
#   - beside them, niced so that the services' processes come first, every other test in
#     two processes (pytest-xdist): the engine's, the web app's, the sandbox's (whose
#     verdicts come from CPU accounting) and the exhaustive set (marked `exhaustive`:
#     every implementation of the library graded through the sandbox).
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
  # Three processes on two cores: many of these tests wait on a server thread for part of
  # their time. Property tests draw a quarter of their examples (tests/strategies.py).
  GRADER_TEST_QUICK=1 exec .venv/bin/pytest -n 3 \
    -m "not integration and not browser and not slow and not exhaustive" \
    tests/reference tests/grader tests/worker tests/test_*.py "$@"
fi
if [ "$#" -gt 0 ]; then
  exec .venv/bin/pytest "$@"
fi
scripts/lint.sh
# Both runs run to the end even when the other fails, so that one report shows every failure.
status=0
services_log="$(mktemp)"
# The service tests' Redis databases: three below the others' (15 for keys, 14 and 13 for
# each process's broker -> 12, 11, 10; their second process 9, 8, 7: tests/redis_databases.py).
services_redis="${GRADER_TEST_REDIS_URL:-}"
if [ -n "$services_redis" ]; then
  redis_db="${services_redis##*/}"
  if [[ "$services_redis" =~ ^[a-z]+://[^/]+/[0-9]+$ ]]; then
    services_redis="${services_redis%/*}/$(((redis_db + 13) % 16))"
  else
    services_redis="${services_redis%/}/13"
  fi
fi
GRADER_TEST_REDIS_URL="$services_redis" .venv/bin/pytest -p no:cacheprovider -m integration \
  -n 2 --dist loadfile tests >"$services_log" 2>&1 &
services=$!
nice -n 5 .venv/bin/pytest -n 2 --dist worksteal -m "not integration" \
  tests/reference tests/grader tests/worker tests/test_*.py || status=1
wait "$services" || status=1
echo "--- the service tests (run beside the others, from the start) ---"
cat "$services_log"
rm -f "$services_log"
exit "$status"
