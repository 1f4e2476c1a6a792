#!/bin/sh
# The image's entry point (Containerfile). Two ways to run:
# - DATABASE_URL set: production (NODE_ENV=production unless set); JWT_SECRET and METRICS_TOKEN come from the
#   environment (deploy/.env.example) and the server refuses to start without them.
# - no DATABASE_URL: a trial on the embedded PostgreSQL in /data, with the demo data (SEED_DEMO) unless told
#   otherwise; its secrets are drawn once and kept in /data/.container-secrets (mode 600), so that a restarted
#   container keeps its sessions.
set -eu

if [ -n "${DATABASE_URL:-}" ]; then
  export NODE_ENV="${NODE_ENV:-production}"
else
  export SEED_DEMO="${SEED_DEMO:-true}"
  secrets="${DATA_DIR:-/data}/.container-secrets"
  if [ -z "${JWT_SECRET:-}" ] || [ -z "${METRICS_TOKEN:-}" ]; then
    if [ ! -f "$secrets" ]; then
      (umask 077 && node -e "const r=()=>require('node:crypto').randomBytes(32).toString('hex');console.log('JWT_SECRET='+r());console.log('METRICS_TOKEN='+r())" >"$secrets")
    fi
    # Read as data (two hexadecimal values), never run as a script.
    value() { sed -n "s/^$1=\([0-9a-f]\{64\}\)\$/\1/p" "$secrets"; }
    export JWT_SECRET="${JWT_SECRET:-$(value JWT_SECRET)}"
    export METRICS_TOKEN="${METRICS_TOKEN:-$(value METRICS_TOKEN)}"
  fi
  echo "Réformes : essai sur la base embarquée (${DATA_DIR:-/data}), comptes de démonstration si la base est vide. En production : DATABASE_URL (deploy/compose.yaml)." >&2
fi
exec "$@"
