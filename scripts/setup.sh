#!/usr/bin/env bash
# Installs what the tests need and the project's npm files cannot bring: the npm dependencies (which
# include PostgreSQL, Deno and the Supabase CLI), and a Chromium for the browser tests. Idempotent,
# and quick when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi

# A browser: Playwright's own where it was installed (`npx playwright install chromium`), else
# Debian's. Playwright cannot download its browser on machines without internet, so there, and only
# as root or with sudo, Debian's is installed with apt.
if ! node scripts/lib/chromium.mjs >/dev/null 2>&1; then
  if command -v apt-get >/dev/null && { [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null; }; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
    echo "setup: installing chromium from Debian (Playwright's own could not be found)"
    $SUDO apt-get update -qq
    # Fonts too, for legible screenshots and the social card.
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
  fi
fi
node scripts/lib/chromium.mjs
