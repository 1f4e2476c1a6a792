#!/bin/sh
# The multi-instance service in one command (README, « Container image and compose »):
#   deploy/up.sh                  build the image, then start deploy/compose.yaml (Docker Compose, else podman-compose)
#   deploy/up.sh --scale app=4    any other argument goes to `compose up`
# The first time, deploy/.env is written from .env.example with secrets drawn at random (mode 600): keep it, and
# keep a copy with the backups (BACKUP_ENCRYPTION_KEY opens them).
set -eu
cd "$(dirname "$0")"

draw() { od -An -tx1 -N32 /dev/urandom | tr -d ' \n'; }
if [ ! -f .env ]; then
  umask 077
  sed -e "s/^JWT_SECRET=\$/JWT_SECRET=$(draw)/" \
      -e "s/^METRICS_TOKEN=\$/METRICS_TOKEN=$(draw)/" \
      -e "s/^TOTP_ENCRYPTION_KEY=\$/TOTP_ENCRYPTION_KEY=$(draw)/" \
      -e "s/^BACKUP_ENCRYPTION_KEY=\$/BACKUP_ENCRYPTION_KEY=$(draw)/" \
      -e "s/^POSTGRES_PASSWORD=\$/POSTGRES_PASSWORD=$(draw)/" \
      -e "s/^REFORMES_DB_PASSWORD=\$/REFORMES_DB_PASSWORD=$(draw)/" \
      -e "s/^S3_SECRET_ACCESS_KEY=\$/S3_SECRET_ACCESS_KEY=$(draw)/" \
      .env.example >.env
  echo "deploy/.env écrit avec des secrets tirés au hasard : gardez-le, et une copie avec les sauvegardes."
fi
# npm run test:deploy writes .env this way, then adds its own images and ports.
[ "${REFORMES_UP_ENV_ONLY:-}" = 1 ] && exit 0

if command -v docker >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
  docker compose -f compose.yaml up -d --build "$@"
elif command -v podman-compose >/dev/null 2>&1; then
  podman-compose -f compose.yaml up -d --build "$@"
else
  echo "Il faut Docker (avec compose) ou Podman avec podman-compose : apt-get install podman podman-compose" >&2
  exit 1
fi
port=$(sed -n 's/^HTTP_PORT=//p' .env)
echo "Réformes démarre derrière HAProxy : http://localhost:${port:-8080} (premier administrateur : docs/operations.md, « Image et compose »)."
