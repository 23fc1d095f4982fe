#!/usr/bin/env bash
# `npm test`: the whole suite, in the order that fails fastest. Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/test/setup.sh

# Each step says how long the suite has run so far, so a slow step is easy to find.
step() { printf '\n\033[1m== %s\033[0m (at %ss)\n' "$*" "$SECONDS"; }
export NO_COLOR=1

step "Lint and format (ESLint, Prettier, deno lint), types (tsc, deno check)"
npm run lint --silent
npx tsc --noEmit
node_modules/deno/deno check --config supabase/functions/send-contact-email/deno.json supabase/functions/send-contact-email/ tests/function/ scripts/mail/samples.ts scripts/mail/send-samples.ts

step "Unit tests (Vitest)"
npx vitest run --project unit

step "Function tests (real PostgreSQL + SMTP catcher) under this repo's Deno and the edge runtime's (2.1.x), side by side; the Supabase CLI on this repo"
# Each run starts its own database and catcher, and mostly waits on them: together they take the time of one.
deno_log=$(mktemp)
node scripts/test/function.mjs >"$deno_log" 2>&1 &
deno_run=$!
edge_status=0
node scripts/test/function.mjs --edge-runtime || edge_status=$?
deno_status=0
wait "$deno_run" || deno_status=$?
printf '\n-- the same tests under this repo'"'"'s Deno:\n'
cat "$deno_log"
rm -f "$deno_log"
[ "$edge_status" -eq 0 ] && [ "$deno_status" -eq 0 ]
node --test tests/deploy/

step "Every mail the function sends: SpamAssassin scores, the Nu HTML checker, rendering (real SMTP catcher)"
npx vitest run --project mail

step "Production build and byte budgets"
npm run build --silent
node scripts/test/check-budgets.mjs

step "The site's server, \`npm run stack\`, \`npm run dev\` and \`npm run verify\` (Vitest)"
# Four files at once on two cores: each starts its own stack on free ports and mostly waits on sockets,
# timers and child processes (vitest's default is one worker per spare core, here one).
npx vitest run --project site --project stack --maxWorkers=4

step "Browser tests (Playwright, $(node scripts/local-stack/chromium.mjs), real local stack)"
npx playwright test

step "The visitor's journey on Firefox (WebDriver BiDi) and WebKit (WebDriver), real local stack"
npx vitest run --project engines

if [ "${SKIP_CONTAINER:-}" != "1" ]; then
  step "Container image (podman)"
  bash tests/container/container.sh
fi
printf '\nnpm test: every step passed in %ss\n' "$SECONDS"
