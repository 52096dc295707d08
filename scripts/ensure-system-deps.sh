#!/usr/bin/env bash
# Debian packages the tests use as real parts: redis-server (shared token and dedupe stores),
# redis-tools (redis-cli --cluster create: the Redis Cluster of the store suite) and chromium (the docs pages are opened headless). `npm test` runs this first (pretest), so the
# README's test command works on a fresh machine. Installs only what is missing.
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages the tests need: ${missing[*]}"
if [ "$(id -u)" = 0 ]; then SUDO=(); elif command -v sudo >/dev/null 2>&1; then SUDO=(sudo); else
  echo "cannot install ${missing[*]}: run as root, or install them with apt-get" >&2
  exit 1
fi
"${SUDO[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
