#!/usr/bin/env bash
# Installs the npm dependencies on a fresh clone (PostgreSQL and Deno come from npm too), or when the
# lock file changed since; quick otherwise. `npm run stack`, `npm run dev` and `npm test` start with it.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
