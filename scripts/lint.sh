#!/usr/bin/env bash
# Lint and type-check: ruff (rules and formatting) and mypy, as configured in pyproject.toml.
# scripts/test.sh runs it once before the whole suite; run it alone after a change.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh dev
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
