#!/usr/bin/env bash
# Start a throwaway PostgreSQL on loopback for the ledger's test suite.
#
#   eval "$(bash .ci/postgres.sh)"
#
# Installs Debian's postgresql when it is missing (apt-get update; apt-get
# install -y postgresql), starts a private cluster on 127.0.0.1 (its own data
# folder and port; the system's cluster is left alone), creates a user and a
# database, and prints exactly one line on stdout:
#   export LEDGER_TEST_POSTGRES_URL=postgresql://ledger:ledger@127.0.0.1:PORT/ledger_test
# When it cannot start one it prints nothing on stdout and still exits 0, so the
# suite runs on SQLite alone. All progress goes to stderr.
set -u
exec 3>&1 1>&2          # stdout is reserved for the export line
# The server must not inherit fd 3 (the caller's $(...) pipe), or the caller waits on it forever.

PORT="${LEDGER_PG_PORT:-55432}"
BASE="${LEDGER_PG_DIR:-/tmp/ledger-pg}"

log() { echo "postgres.sh: $*" >&2; }
give_up() { log "$*; no PostgreSQL for the tests"; exit 0; }

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

BIN="$(find_bin)"
if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing Debian's postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || give_up "apt-get update failed"
    apt-get install -y -qq postgresql || give_up "apt-get install postgresql failed"
    BIN="$(find_bin)"
  fi
fi
[ -n "$BIN" ] && [ -x "$BIN/initdb" ] || give_up "no initdb found"

# postgres refuses to run as root: run the cluster as the postgres user then.
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || give_up "no postgres user"
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi

URL="postgresql://ledger:ledger@127.0.0.1:${PORT}/ledger_test"
if as_pg "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" 2>/dev/null; then
  log "a server already answers on port $PORT; reusing it"
else
  rm -rf "$BASE"
  mkdir -p "$BASE" && chmod 700 "$BASE" || give_up "cannot create $BASE"
  [ "$(id -u)" = 0 ] && chown postgres "$BASE"
  as_pg "$BIN/initdb" -D "$BASE/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null \
    || as_pg "$BIN/initdb" -D "$BASE/data" -U postgres --auth=trust -E UTF8 >/dev/null \
    || give_up "initdb failed"
  as_pg "$BIN/pg_ctl" -D "$BASE/data" -l "$BASE/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $BASE -c fsync=on" start >/dev/null 3>&- \
    || give_up "the server did not start (see $BASE/server.log)"
fi

psql_pg() { as_pg "$BIN/psql" -X -q -h 127.0.0.1 -p "$PORT" -U postgres -v ON_ERROR_STOP=1 "$@"; }
if ! psql_pg -tAc "SELECT 1 FROM pg_roles WHERE rolname='ledger'" | grep -q 1; then
  psql_pg -c "CREATE USER ledger PASSWORD 'ledger'" || give_up "cannot create the user"
fi
if ! psql_pg -tAc "SELECT 1 FROM pg_database WHERE datname='ledger_test'" | grep -q 1; then
  psql_pg -c "CREATE DATABASE ledger_test OWNER ledger" || give_up "cannot create the database"
fi
log "PostgreSQL ready on 127.0.0.1:$PORT (data in $BASE/data)"
echo "export LEDGER_TEST_POSTGRES_URL=$URL" >&3
exit 0
