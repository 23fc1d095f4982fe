/**
 * Whether the site's function answers and recognises the site's relay secret, for /healthz (and
 * `npm run verify`, which reads it), and the owner's alarm when it does not. Asked at start-up (again
 * every 10 s until the function answers) and then in the background at most every 10 s, never waited
 * for: /healthz answers from what the last check found, so a slow or unreachable function never makes
 * the container's HEALTHCHECK (3 s) fail, and a flood of /healthz requests costs the function two
 * requests per 10 s.
 *
 * The alarm (`relay-secret-mismatch`, error level) is rung here, on the site's side, from the site's
 * own secret: only the owner's configuration can ring it. The function refuses a wrong relay secret
 * from anyone as an ordinary, throttled refusal, and its /health tells relay state only to the owner
 * (docs/decisions/023).
 */
// Node's timers (also under Deno, whose tests call this): a retry must not keep a stopping site alive.
import { setTimeout } from "node:timers";
// By relative path, not #shared/*: the function's Deno tests import this module too (tests/function/security.test.ts),
// and the function's import map, which is deployed with it, stays free of the site's alias.
import { FUNCTION_NAME, RELAY_HEADERS } from "../../supabase/functions/_shared/contact-message.ts";

export type FunctionCheck =
  | { state: "not-checked-yet" }
  | { state: "unreachable"; checkedAt: string; error: string }
  | { state: "answered"; checkedAt: string; status: "ok" | "error"; relay: "recognised" | "refused" | "not-sent" };

type Options = { supabaseUrl: string; relaySecret?: string };

const EVERY_MS = 10_000;
const TIMEOUT_MS = 5_000;
/** At start-up the function may come up after the site: checks repeat until it answers, this many times at most. */
const START_TRIES = 30;

/** The owner's alarm, as the site's log shows it. */
export const RELAY_ALARM =
  "relay-secret-mismatch: the function does not recognise this site's ENQUIRY_RELAY_SECRET: no-JavaScript enquiries fail. Set the same value on both.";

let last: FunctionCheck = { state: "not-checked-yet" };
let lastStarted = -Infinity;

export function functionCheck(options: Options): FunctionCheck {
  if (Date.now() - lastStarted > EVERY_MS) {
    lastStarted = Date.now();
    void check(options).then(record);
  }
  return last;
}

/** At start-up: the first check now, repeated every 10 s while the function cannot be reached. */
export function checkFunctionAtStart(options: Options, tries = START_TRIES) {
  lastStarted = Date.now();
  void check(options).then((found) => {
    record(found);
    if (found.state === "unreachable" && tries > 1) setTimeout(() => checkFunctionAtStart(options, tries - 1), EVERY_MS).unref();
  });
}

function record(found: FunctionCheck) {
  // Once per change: a site whose secret stays wrong logs it once, not every 10 s.
  if (found.state === "answered" && found.relay === "refused" && !(last.state === "answered" && last.relay === "refused"))
    console.error(RELAY_ALARM);
  last = found;
}

/** Asks the function's public /health and its relay check (with the site's own secret, when it has one). */
export async function check({ supabaseUrl, relaySecret }: Options): Promise<FunctionCheck> {
  const checkedAt = new Date().toISOString();
  const base = `${supabaseUrl}/functions/v1/${FUNCTION_NAME}`;
  try {
    const [health, relay] = await Promise.all([
      fetch(`${base}/health`, { signal: AbortSignal.timeout(TIMEOUT_MS) }),
      relaySecret
        ? fetch(`${base}/relay-check`, { headers: { [RELAY_HEADERS.secret]: relaySecret }, signal: AbortSignal.timeout(TIMEOUT_MS) })
        : undefined,
    ]);
    const body = (await health.json().catch(() => ({}))) as { status?: string };
    const answer = (await relay?.json().catch(() => ({}))) as { status?: string; code?: string } | undefined;
    return {
      state: "answered",
      checkedAt,
      status: body.status === "ok" ? "ok" : "error",
      relay: answer?.status === "ok" ? "recognised" : answer?.code === "relay-refused" ? "refused" : "not-sent",
    };
  } catch (error) {
    return { state: "unreachable", checkedAt, error: error instanceof Error ? error.message : String(error) };
  }
}
