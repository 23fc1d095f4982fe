#!/usr/bin/env bash
# Installs the pinned Supabase CLI and the edge runtime's Deno into scripts/supabase-cli/node_modules
# (once, and again when package.json here changes). Used by `npm test` (scripts/test/setup.sh) and `npm run supabase`.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x node_modules/.bin/supabase ] || [ ! -e node_modules/deno/deno ] || [ package.json -nt node_modules/.installed ]; then
  echo "setup: installing the Supabase CLI and the edge runtime's Deno (scripts/supabase-cli)" >&2
  npm install --no-package-lock --no-audit --no-fund --loglevel=error >&2
  touch node_modules/.installed
fi
