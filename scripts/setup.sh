#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks for the tests: Debian's Chromium (Playwright cannot
# download its own here), the PostgreSQL 15 server, and the npm dependencies. Idempotent and quick
# when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/lib/postgresql/15/bin/initdb ] || need+=(postgresql-15)
# Fonts for legible screenshots and the social card.
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]} from Debian"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  # The Debian package starts a cluster of its own; the tests start their own servers.
  $SUDO service postgresql stop >/dev/null 2>&1 || true
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
