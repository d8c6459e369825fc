#!/usr/bin/env bash
# The whole test suite: set up .venv, lint, type-check, run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh dev
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/pytest "$@"
