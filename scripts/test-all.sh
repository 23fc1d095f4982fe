#!/usr/bin/env bash
# `npm test`: the whole suite, in the order that fails fastest. Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
export NO_COLOR=1

step "Types (app) and Deno check + lint (function)"
npx tsc --noEmit
DENO=node_modules/deno/deno
$DENO check --config supabase/functions/send-contact-email/deno.json supabase/functions/send-contact-email/
$DENO lint --config supabase/functions/send-contact-email/deno.json supabase/functions/send-contact-email/ supabase/functions/_shared/

step "Unit tests (Vitest)"
npx vitest run --project unit

step "Function tests (Deno, real PostgreSQL + SMTP catcher)"
node scripts/test-function.mjs

step "Function tests under the edge runtime's Deno (2.1.x), and the Supabase CLI on this repo"
node scripts/test-function.mjs --edge-runtime
node --test scripts/test-deploy.mjs

step "Production build and byte budgets"
npm run build --silent
node scripts/check-budgets.mjs

step "The local stack as \`npm run stack\` starts it (bursts, restart)"
npx vitest run --project stack

step "Browser tests (Playwright, $(node scripts/lib/chromium.mjs), real local stack)"
npx playwright test

if [ "${SKIP_CONTAINER:-}" != "1" ] && [ -f scripts/test-container.sh ]; then
  step "Container image (podman)"
  bash scripts/test-container.sh
fi
