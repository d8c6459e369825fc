# Sourced by scripts/test.sh after scripts/venv.sh: makes sure the servers and programs the
# test suite uses are there, then exports where to find them:
#   GRADER_TEST_DATABASE_URL  PostgreSQL (from DATABASE_URL if set, else a local server)
#   GRADER_TEST_REDIS_URL     Redis (from REDIS_URL if set, else a local server, db 15)
# On a fresh Debian machine, as root, it installs and starts what is missing (PostgreSQL,
# Redis, Chromium and its driver, libseccomp); elsewhere it says what is missing and the
# tests that need it are skipped. Each step prints one line and is quick when done already.

_svc_apt_updated=""

_svc_say() { echo "services: $*"; }

_svc_can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }

_svc_install() {  # quiet unless apt fails, then its last lines
  local log status=0
  log="$(mktemp)"
  {
    if [ -z "$_svc_apt_updated" ]; then
      apt-get update -qq && _svc_apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
  } >"$log" 2>&1 || status=$?
  [ "$status" = 0 ] || tail -n 20 "$log" >&2
  rm -f "$log"
  return "$status"
}

_svc_listening() {  # host port
  timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null
}

_svc_wait_for() {  # host port: up to 15 s
  local _i
  for _i in $(seq 30); do
    _svc_listening "$1" "$2" && return 0
    sleep 0.5
  done
  return 1
}

_svc_start_postgres() {
  if ! command -v pg_ctlcluster >/dev/null; then
    _svc_say "installing PostgreSQL"
    _svc_install postgresql
  fi
  local version
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  # Tests sign in as postgres over the loopback interface without a password.
  local hba="/etc/postgresql/$version/main/pg_hba.conf"
  if ! grep -q "grader tests" "$hba"; then
    sed -i "1i host all postgres 127.0.0.1/32 trust  # grader tests\nhost all postgres ::1/128 trust  # grader tests" "$hba"
  fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null
  _svc_wait_for 127.0.0.1 5432
}

# Creates the database "test" when missing; fails when the server refuses the sign-in.
_svc_ensure_test_database() {
  .venv/bin/python - <<'PY'
import sys

import psycopg

try:
    with psycopg.connect(
        "host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=5",
        autocommit=True,
    ) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = 'test'").fetchone():
            connection.execute("CREATE DATABASE test")
except psycopg.Error as error:
    print(f"services: PostgreSQL refused postgres@127.0.0.1: {error}".strip(), file=sys.stderr)
    sys.exit(1)
PY
}

_svc_postgres() {
  if [ -n "${GRADER_TEST_DATABASE_URL:-}" ]; then
    _svc_say "PostgreSQL from GRADER_TEST_DATABASE_URL"
    return
  fi
  if [ -n "${DATABASE_URL:-}" ]; then
    # SQLAlchemy names the driver: postgres:// and postgresql:// mean psycopg 3 here.
    GRADER_TEST_DATABASE_URL="$(echo "$DATABASE_URL" | sed -E 's#^postgres(ql)?://#postgresql+psycopg://#')"
    export GRADER_TEST_DATABASE_URL
    _svc_say "PostgreSQL from DATABASE_URL"
    return
  fi
  if ! _svc_listening 127.0.0.1 5432; then
    if ! _svc_can_install; then
      _svc_say "no PostgreSQL on 127.0.0.1:5432 (not root: its tests are skipped)"
      return
    fi
    if ! _svc_start_postgres; then
      _svc_say "PostgreSQL did not start (its tests are skipped)"
      return
    fi
  fi
  if _svc_ensure_test_database; then
    export GRADER_TEST_DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:5432/test"
    _svc_say "PostgreSQL at 127.0.0.1:5432, database test"
  else
    _svc_say "set GRADER_TEST_DATABASE_URL to run the PostgreSQL tests"
  fi
}

_svc_redis() {
  if [ -n "${REDIS_URL:-}" ]; then
    export GRADER_TEST_REDIS_URL="$REDIS_URL"
    _svc_say "Redis from REDIS_URL"
    return
  fi
  if [ -n "${GRADER_TEST_REDIS_URL:-}" ]; then
    _svc_say "Redis from GRADER_TEST_REDIS_URL"
    return
  fi
  if ! _svc_listening 127.0.0.1 6379; then
    if ! command -v redis-server >/dev/null; then
      if ! _svc_can_install; then
        _svc_say "no Redis on 127.0.0.1:6379 (not root: its tests are skipped)"
        return
      fi
      _svc_say "installing Redis"
      _svc_install redis-server
    fi
    # The package may have started one already; else a throwaway server without persistence.
    if ! _svc_listening 127.0.0.1 6379; then
      redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
    fi
    if ! _svc_wait_for 127.0.0.1 6379; then
      _svc_say "Redis did not start (its tests are skipped)"
      return
    fi
  fi
  export GRADER_TEST_REDIS_URL="redis://127.0.0.1:6379/15"
  _svc_say "Redis at 127.0.0.1:6379, database 15"
}

_svc_chromium() {
  if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    _svc_say "Chromium and chromedriver present"
  elif _svc_can_install; then
    _svc_say "installing Chromium and chromedriver"
    _svc_install chromium chromium-driver
  else
    _svc_say "no Chromium or chromedriver (not root: browser tests are skipped)"
  fi
}

# The sandbox's filter is compiled by libseccomp: PyPI's pyseccomp (in the lock) loads the
# shared library with ctypes, so only the Debian library package is needed, no binding.
_svc_libseccomp() {
  local libraries
  libraries="$({ ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null || true)"
  if [[ "$libraries" == *libseccomp.so.2* ]]; then
    _svc_say "libseccomp present"
  elif _svc_can_install; then
    _svc_say "installing libseccomp"
    _svc_install libseccomp2
  else
    _svc_say "no libseccomp (not root: sandbox tests are skipped)"
  fi
}

_svc_postgres
_svc_redis
_svc_chromium
_svc_libseccomp
