#!/usr/bin/env bash
# The main job: the whole service on this machine, with nothing else installed. SQLite holds
# the data and Celery's queues (or Redis when GRADER_REDIS_URL is set); Celery workers grade
# in the sandbox, each on queues of its own (see grader/services/queue.py); gunicorn serves
# the web app. Each worker is supervised: when it exits (a full disk, a lost broker) it is
# started again two seconds later, and the restart is logged.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh run
export GRADER_ENV="${GRADER_ENV:-development}"
export GRADER_INSTANCE_DIR="${GRADER_INSTANCE_DIR:-$PWD/instance}"
bind="${GRADER_BIND:-127.0.0.1:8000}"
# Links in mail lead here (GRADER_PUBLIC_URL): the address gunicorn is bound to, or this
# machine's name when it listens on every interface. Set GRADER_PUBLIC_URL for another
# name, and GRADER_TRUSTED_HOSTS for other names the pages should answer to.
if [ -z "${GRADER_PUBLIC_URL:-}" ]; then
  case "$bind" in
    unix:*) ;; # no address to link to: development then links to the request's host
    0.0.0.0:* | "[::]:"*)
      export GRADER_PUBLIC_URL="http://$(hostname -f 2>/dev/null || hostname):${bind##*:}" ;;
    *) export GRADER_PUBLIC_URL="http://$bind" ;;
  esac
fi
.venv/bin/grader db upgrade
.venv/bin/grader demo

# supervise NAME COMMAND...: run COMMAND again whenever it exits, its output in NAME.log.
supervise() {
  local name=$1 child code
  shift
  trap 'kill -TERM "$child" 2>/dev/null; wait "$child" 2>/dev/null; exit 0' TERM INT
  while true; do
    "$@" >>"$GRADER_INSTANCE_DIR/$name.log" 2>&1 &
    child=$!
    code=0
    wait "$child" || code=$?
    echo "$(date -u +%FT%TZ) the $name worker exited (status $code); restarting it in 2 s" \
      | tee -a "$GRADER_INSTANCE_DIR/$name.log" >&2
    sleep 2
  done
}

celery=(.venv/bin/celery -A worker.celery_app worker --loglevel INFO --without-gossip)
supervisors=()
cpus="$(nproc)"
# The fast grading lane: every run starts here, with a small budget of time. Four slots a
# CPU: a run that sleeps, blocks or floods holds its slot without computing, so that the
# runs behind it need not wait for it.
supervise grading "${celery[@]}" -Q grading --hostname "grading@%h" \
  --concurrency "${GRADER_FAST_LANE_SLOTS:-$((4 * cpus))}" -O fair &
supervisors+=($!)
# The slow lane: runs that need the exercise's full limits, as many at once as there are
# CPUs, at a lower priority so that they take little CPU from the fast lane.
supervise grading-slow nice -n 10 "${celery[@]}" -Q grading-slow --hostname "slow@%h" \
  --concurrency "${GRADER_SLOW_LANE_SLOTS:-$cpus}" &
supervisors+=($!)
# Result callbacks and scores wait on other servers, not on the CPU: threads.
supervise callbacks "${celery[@]}" -Q callbacks --hostname "callbacks@%h" --pool threads \
  --concurrency 8 &
supervisors+=($!)
# The reaper and the deliveries' sweep, and the beat that schedules them.
supervise maintenance "${celery[@]}" -Q maintenance --hostname "maintenance@%h" \
  --concurrency 1 -B --schedule "$GRADER_INSTANCE_DIR/beat-schedule" &
supervisors+=($!)
web=""
stop() {
  trap - EXIT INT TERM
  kill -TERM ${web:+"$web"} "${supervisors[@]}" 2>/dev/null || true
  wait ${web:+"$web"} "${supervisors[@]}" 2>/dev/null || true
}
trap stop EXIT
trap 'exit 143' INT TERM
echo "grading workers started (logs: $GRADER_INSTANCE_DIR/{grading,grading-slow,callbacks,maintenance}.log)"
echo "open ${GRADER_PUBLIC_URL:-http://$bind}/ and sign in with an account above (Ctrl-C stops the service)"
# In the background and waited for, so that a TERM (kill, timeout, a process manager)
# stops the whole service at once, as Ctrl-C does.
.venv/bin/gunicorn --bind "$bind" --workers 2 --access-logfile - grader.wsgi:app &
web=$!
wait "$web"
