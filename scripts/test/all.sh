#!/usr/bin/env bash
# `npm test`: the whole suite, packed onto the machine's cores (below). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Each step says how long the suite has run so far, so a slow step is easy to find.
step() { printf '\n\033[1m== %s\033[0m (at %ss)\n' "$*" "$SECONDS"; }
export NO_COLOR=1

# Steps that mostly wait (on a database, a browser, a download) run beside the next ones; each one's
# output is printed whole where it is waited for, and a failure there fails the suite there.
declare -A beside_pid beside_log beside_started
beside() {
  local name=$1
  shift
  beside_log[$name]=$(mktemp)
  beside_started[$name]=$SECONDS
  printf '\n(at %ss: "%s" starts, beside the next steps)\n' "$SECONDS" "$name"
  # In a process group of its own, so that stopping it stops everything it started.
  setsid "$@" >"${beside_log[$name]}" 2>&1 &
  beside_pid[$name]=$!
}
finish_beside() {
  local name=$1 status=0
  wait "${beside_pid[$name]}" || status=$?
  printf '\n-- %s (started at %ss, ended by %ss):\n' "$name" "${beside_started[$name]}" "$SECONDS"
  cat "${beside_log[$name]}"
  rm -f "${beside_log[$name]}"
  # Marked as ended (`unset` cannot take a name with an apostrophe as a subscript).
  beside_pid[$name]=""
  return "$status"
}
# Whatever still runs beside when the suite stops early is stopped with it (each cleans up on TERM),
# and the end of what it had printed is shown.
stop_beside() {
  local name
  for name in "${!beside_pid[@]}"; do
    [ -z "${beside_pid[$name]}" ] || kill -TERM -- "-${beside_pid[$name]}" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  for name in "${!beside_pid[@]}"; do
    [ -n "${beside_pid[$name]}" ] || continue
    printf '\n-- %s (stopped with the suite; the end of its output):\n' "$name"
    tail -n 15 "${beside_log[$name]}"
  done
  for name in "${!beside_log[@]}"; do rm -f "${beside_log[$name]}"; done
}
trap stop_beside EXIT
# The steps that run beside others, by the name they are started and waited for with.
container="Container image (podman)"
function_tests="Function tests under the edge runtime's Deno (2.1.x), real PostgreSQL + SMTP catcher"
long_waits="The fault suite and \`npm run verify\` (Vitest), each on a local stack of its own"
engines="The visitor's journey on Firefox (WebDriver BiDi) and WebKit (WebDriver), real local stack"

# The container check needs nothing npm installs (the image runs its own npm ci, and its build context
# leaves node_modules out): it starts first, beside the set-up, which leaves most of a core idle.
if [ "${SKIP_CONTAINER:-}" != "1" ]; then
  beside "$container" bash tests/container/container.sh
fi
step "Set-up: npm ci and what the tests need (scripts/test/setup.sh)"
bash scripts/test/setup.sh

# After the set-up the suite is bound by CPU: the two cores stay busy to the end. So the order only
# packs the work: the browser suite, the longest step (the largest share of the CPU time; each
# step's is measured in docs/decisions/015), starts as soon as the build exists and runs beside all
# the others, which follow one another in front. The steps that wait most start beside early, so that
# their waiting never ends the suite with the cores idle.

# The build and its byte budgets first: the browser suite needs the build, and it fails fast.
step "Production build and byte budgets"
npm run build --silent
node scripts/test/check-budgets.mjs

# Exit 2: only the whole browser, which the tests drive too (slower); an assignment would stop the suite on it.
chromium=$(node scripts/local-stack/chromium.mjs 2>/dev/null) || [ $? -eq 2 ]
browser_tests="Browser tests (Playwright, $chromium, real local stack)"
beside "$browser_tests" npx playwright test
# The function's tests mostly wait on their database and catcher. They run under the Deno Supabase's edge
# runtime embeds, which production runs; this repo's Deno runs the function in every stack, browser and
# engine test below (`npm run test:function` runs these tests under it too).
beside "$function_tests" node scripts/test/function.mjs --edge-runtime
# The two longest files of the site and stack tests wait for minutes (the fault suite on recoveries and
# schedules, 150 s; verify on its deadlines, 90 s) and compute little (24 CPU-s each): run last with the
# others, they kept the cores 80 % idle for the suite's last 40 s.
long_wait_files=(tests/stack/faults.test.ts tests/site/verify.test.ts)
beside "$long_waits" npx vitest run --project site --project stack "${long_wait_files[@]}"

step "Lint and format (ESLint, Prettier, deno lint), types (tsc, deno check)"
npm run lint --silent
npx tsc --noEmit
node_modules/deno/deno check --config supabase/functions/send-contact-email/deno.json supabase/functions/send-contact-email/ tests/function/ scripts/mail/samples.ts scripts/mail/send-samples.ts

step "Unit tests (Vitest)"
npx vitest run --project unit

step "The function's tests (started beside the steps above); the Supabase CLI on this repo"
finish_beside "$function_tests"
node --test tests/deploy/

step "Every mail the function sends: SpamAssassin scores, the Nu HTML checker, rendering (real SMTP catcher)"
npx vitest run --project mail

step "The site's server, \`npm run stack\` and \`npm run dev\` (Vitest); the fault suite and verify (started after the build)"
# Each file starts its own stack on free ports and mostly waits on sockets, timers and child processes.
# The other engines' journey waits on its browsers the same way, so it runs beside.
beside "$engines" npx vitest run --project engines
npx vitest run --project site --project stack --maxWorkers=4 "${long_wait_files[@]/#/--exclude=}"
finish_beside "$engines"
finish_beside "$long_waits"

step "Browser tests (started after the build)"
finish_beside "$browser_tests"

[ "${SKIP_CONTAINER:-}" = "1" ] || finish_beside "$container"
printf '\nnpm test: every step passed in %ss\n' "$SECONDS"
