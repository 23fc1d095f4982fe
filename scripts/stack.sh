#!/usr/bin/env bash
# `npm run stack`: installs the npm dependencies on a fresh clone, then starts everything.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
exec node scripts/stack.mjs "$@"
