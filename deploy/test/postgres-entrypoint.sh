#!/bin/sh
# The official image's first start, reduced: a cluster owned by POSTGRES_USER with its password, POSTGRES_DB created,
# the scripts of /docker-entrypoint-initdb.d run, password (scram) connections from anywhere; then PostgreSQL.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/pwfile
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -w -o "-c listen_addresses=''" start >/dev/null
  [ "${POSTGRES_DB:-$POSTGRES_USER}" = postgres ] || createdb -U "$POSTGRES_USER" "${POSTGRES_DB:-$POSTGRES_USER}"
  for script in /docker-entrypoint-initdb.d/*.sh; do
    [ -e "$script" ] && sh "$script"
  done
  pg_ctl -D "$PGDATA" -w stop >/dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
