#!/usr/bin/env bash
# Regenerates the lock files from pyproject.toml (needs network access to PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv-lock
.venv-lock/bin/pip install -q uv
.venv-lock/bin/uv pip compile pyproject.toml --python-version 3.11 --generate-hashes -o requirements/run.lock
.venv-lock/bin/uv pip compile pyproject.toml --extra dev --python-version 3.11 --generate-hashes -o requirements/dev.lock
rm -rf .venv-lock
