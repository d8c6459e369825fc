#!/usr/bin/env bash
# The main job: the whole service on this machine, with nothing else installed. SQLite holds
# the data and Celery's queue (or Redis when GRADER_REDIS_URL is set); one Celery worker
# (with the reaper's beat) grades in the sandbox; gunicorn serves the web app.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh run
export GRADER_ENV="${GRADER_ENV:-development}"
export GRADER_INSTANCE_DIR="${GRADER_INSTANCE_DIR:-$PWD/instance}"
bind="${GRADER_BIND:-127.0.0.1:8000}"
.venv/bin/grader db upgrade
.venv/bin/grader demo
.venv/bin/celery -A worker.celery_app worker --concurrency 2 -O fair --loglevel INFO \
  -B --schedule "$GRADER_INSTANCE_DIR/beat-schedule" >"$GRADER_INSTANCE_DIR/worker.log" 2>&1 &
worker=$!
trap 'kill "$worker" 2>/dev/null; wait "$worker" 2>/dev/null' EXIT INT TERM
echo "grading worker started (log: $GRADER_INSTANCE_DIR/worker.log)"
echo "open http://$bind/ and sign in with an account above (Ctrl-C stops the service)"
.venv/bin/gunicorn --bind "$bind" --workers 2 --access-logfile - grader.wsgi:app
