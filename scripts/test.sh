#!/usr/bin/env bash
# The whole test suite: set up .venv and the servers the tests use (PostgreSQL, Redis,
# Chromium; see scripts/services.sh), lint, type-check, run pytest (two processes).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh dev
source scripts/services.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
if [ "${GRADER_TEST_SPLIT:-1}" = 0 ]; then
  exec .venv/bin/pytest "$@"
fi
# Two pytest processes side by side: the tests of shared services (marked integration or
# browser: Celery workers, Redis, Chromium), one after another, which mostly wait; and all
# the others. The services' output follows the others'. Exit 5 (nothing collected, when
# the arguments pick tests of one kind only) counts as success. (A third process, tried,
# made the tests that measure CPU time against real time fail on two cores.)
# GRADER_TEST_SPLIT=0: one process.
services_log="$(mktemp)"
trap 'rm -f "$services_log"' EXIT
.venv/bin/pytest -m "integration or browser" "$@" >"$services_log" 2>&1 &
services=$!
others=0
.venv/bin/pytest -m "not integration and not browser" "$@" || others=$?
shared=0
wait "$services" || shared=$?
echo "---- tests of shared services (integration, browser): pytest exit $shared ----"
cat "$services_log"
[ "$others" = 5 ] && others=0
[ "$shared" = 5 ] && shared=0
if [ "$others" != 0 ]; then exit "$others"; fi
exit "$shared"
