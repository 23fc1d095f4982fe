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

step "Function tests (Deno, real PostgreSQL + SMTP catcher)"
node scripts/test/function.mjs

step "Function tests under the edge runtime's Deno (2.1.x), and the Supabase CLI on this repo"
node scripts/test/function.mjs --edge-runtime
node --test tests/deploy/

step "Every mail the function sends: SpamAssassin scores, the Nu HTML checker, rendering (real SMTP catcher)"
npx vitest run --project mail

step "Production build and byte budgets"
npm run build --silent
node scripts/test/check-budgets.mjs

step "The site's server, \`npm run stack\`, \`npm run dev\` and \`npm run verify\` (Vitest)"
npx vitest run --project site --project stack

step "Browser tests (Playwright, $(node scripts/local-stack/chromium.mjs), real local stack)"
npx playwright test

step "The visitor's journey on Firefox (WebDriver BiDi) and WebKit (WebDriver), real local stack"
npx vitest run --project engines

if [ "${SKIP_CONTAINER:-}" != "1" ]; then
  step "Container image (podman)"
  bash tests/container/container.sh
fi
printf '\nnpm test: every step passed in %ss\n' "$SECONDS"
