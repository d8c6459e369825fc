# Sourced by scripts/run.sh and scripts/test.sh: creates or reuses .venv and installs
# the locked dependencies named by $1 (run or dev), reinstalling only when the lock changed.
set -euo pipefail
lock="requirements/$1.lock"
if ! [ -x .venv/bin/python ]; then
  if ! python3 -m venv .venv 2>/dev/null; then
    # Debian ships venv support in a separate package.
    rm -rf .venv
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    else
      echo "python3 -m venv failed: install python3-venv (sudo apt-get install python3-venv)" >&2
      exit 1
    fi
    python3 -m venv .venv
  fi
fi
stamp=".venv/.installed-$1"
want="$(sha256sum "$lock" pyproject.toml | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  .venv/bin/python -m pip install -q --disable-pip-version-check --require-hashes -r "$lock"
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -e .
  echo "$want" > "$stamp"
fi
