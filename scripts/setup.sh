#!/usr/bin/env bash
# Installs what the tests need: the npm dependencies (which include PostgreSQL and Deno), the pinned
# Supabase CLI and the edge runtime's Deno (scripts/supabase-platform), and from apt only what npm
# cannot bring (below). Idempotent, and quick when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
# The Supabase CLI and the edge runtime's Deno, pinned (their own folder: see its package.json).
bash scripts/supabase-platform/install.sh

# From apt only what npm cannot bring, only where apt runs (root or passwordless sudo):
# - a browser, where Playwright's own (`npx playwright install chromium`) is not there: Playwright
#   cannot download it on machines without internet; fonts too, for legible screenshots;
# - nginx, the real shared cache the CDN test puts in front of the site (skipped where it is missing).
need=()
node scripts/lib/chromium.mjs >/dev/null 2>&1 || need+=(chromium fonts-dejavu-core)
[ -x "${NGINX_PATH:-/usr/sbin/nginx}" ] || need+=(nginx-light)
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null && { [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null; }; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
  echo "setup: installing ${need[*]} from Debian"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  # The Debian package starts a server of its own on port 80; the tests start their own.
  $SUDO service nginx stop >/dev/null 2>&1 || true
fi
node scripts/lib/chromium.mjs
