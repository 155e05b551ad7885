#!/usr/bin/env bash
# A lasting PostgreSQL for the store tests, for when you want one that outlives a run (npm test and .ci/run need
# none: with TEST_DATABASE_URL unset, npm test makes a throw-away cluster itself, scripts/throwaway-postgres.mjs).
# Makes a PostgreSQL server available on 127.0.0.1 and prints its URL on the last line of stdout:
#   export TEST_DATABASE_URL="$(bash scripts/ci-postgres.sh | tail -n 1)"
# Idempotent: installs Debian's `postgresql` only when no server is installed, creates a cluster only when none
# exists, starts it only when it is down, and creates or refreshes the test role and database.
# Everything but the URL goes to stderr, so callers can take the last line without filtering.
set -euo pipefail

ROLE="${PG_TEST_ROLE:-pixtest}"
PASSWORD="${PG_TEST_PASSWORD:-pixtest}"
DATABASE="${PG_TEST_DATABASE:-pixtest}"

log() { echo "ci-postgres: $*" >&2; }

# The cluster tools come with Debian's packages; binaries that are only on PATH (for example links in
# /usr/local/bin) do not give us pg_ctlcluster, so the packages decide.
server_installed() {
  command -v pg_ctlcluster >/dev/null 2>&1 && compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null
}

if ! server_installed; then
  log "installing postgresql with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi

# First cluster that `pg_lsclusters` lists: "version name port status owner datadir logfile".
first_cluster() { pg_lsclusters -h 2>/dev/null | head -n 1; }

if [ -z "$(first_cluster)" ]; then
  version="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
  log "creating cluster $version/main"
  pg_createcluster "$version" main >&2
fi

read -r version name port status _ < <(first_cluster)

# initdb and postgres refuse to run as root; pg_ctlcluster switches to the cluster owner itself.
case "$status" in
  online*) ;;
  *)
    log "starting cluster $version/$name on port $port"
    pg_ctlcluster "$version" "$name" start >&2 || service postgresql start >&2
    ;;
esac

for _ in $(seq 1 60); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 0.5
done
pg_isready -h 127.0.0.1 -p "$port" >&2

as_postgres() { (cd / && runuser -u postgres -- "$@"); }

# CREATEDB because every test run makes and drops its own database, so parallel runs never share tables or
# notification channels.
as_postgres psql -q -p "$port" -v ON_ERROR_STOP=1 -d postgres >&2 <<SQL
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE "$ROLE" LOGIN CREATEDB PASSWORD '$PASSWORD';
  ELSE
    ALTER ROLE "$ROLE" LOGIN CREATEDB PASSWORD '$PASSWORD';
  END IF;
END
\$\$;
SQL

if [ -z "$(as_postgres psql -p "$port" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" ]; then
  as_postgres createdb -p "$port" -O "$ROLE" "$DATABASE" >&2
fi

log "ready"
echo "postgres://$ROLE:$PASSWORD@127.0.0.1:$port/$DATABASE"
