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
# Three pytest processes side by side, each with its own output (printed in turn at the
# end): the tests of shared services (marked integration or browser: Celery workers, Redis,
# Chromium), one after another, which mostly wait; the web app's own tests (tests/grader);
# and the engine's and the worker's (tests/reference, tests/worker, tests/test_*.py). Exit 5
# (nothing collected, when the arguments pick tests of one part only) counts as success.
# GRADER_TEST_SPLIT=0: one process.
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
unit='not integration and not browser'
.venv/bin/pytest -m "integration or browser" "$@" >"$logs/services" 2>&1 &
services=$!
.venv/bin/pytest -m "$unit" --ignore=tests/reference --ignore=tests/worker \
  --ignore-glob='tests/test_*.py' "$@" >"$logs/grader" 2>&1 &
grader=$!
status=0
for part in engine grader services; do
  case "$part" in
    engine)
      code=0
      .venv/bin/pytest -m "$unit" --ignore=tests/grader "$@" >"$logs/engine" 2>&1 || code=$?
      ;;
    grader) code=0; wait "$grader" || code=$? ;;
    services) code=0; wait "$services" || code=$? ;;
  esac
  echo "---- $part: pytest exit $code ----"
  cat "$logs/$part"
  if [ "$code" != 0 ] && [ "$code" != 5 ] && [ "$status" = 0 ]; then status=$code; fi
done
exit "$status"
