#!/bin/sh
# Run once by the PostgreSQL image on an empty volume (/docker-entrypoint-initdb.d): the app's own role, owner of its
# database and nothing more (no superuser), as docs/security.md V13 asks. POSTGRES_USER stays the administrator's.
set -eu
psql -v ON_ERROR_STOP=1 -v password="$REFORMES_DB_PASSWORD" --username "$POSTGRES_USER" --dbname postgres <<'SQL'
create role reformes login password :'password';
create database reformes owner reformes;
SQL
