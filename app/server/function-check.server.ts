/**
 * Whether the site's function answers and recognises the site's relay secret, for /healthz (and
 * `npm run verify`, which reads it). Asked in the background at most every 10 s and never waited for:
 * /healthz answers from what the last check found, so a slow or unreachable function never makes the
 * container's HEALTHCHECK (3 s) fail, and a flood of /healthz requests costs the function one request
 * per 10 s.
 */
import { FUNCTION_NAME, RELAY_HEADERS } from "../../supabase/functions/_shared/contact-message.ts";

export type FunctionCheck =
  | { state: "not-checked-yet" }
  | { state: "unreachable"; checkedAt: string; error: string }
  | { state: "answered"; checkedAt: string; status: "ok" | "error"; relay: "recognised" | "refused" | "not-sent" };

const EVERY_MS = 10_000;
const TIMEOUT_MS = 5_000;

let last: FunctionCheck = { state: "not-checked-yet" };
let lastStarted = -Infinity;

export function functionCheck({ supabaseUrl, relaySecret }: { supabaseUrl: string; relaySecret?: string }): FunctionCheck {
  if (Date.now() - lastStarted > EVERY_MS) {
    lastStarted = Date.now();
    void check(supabaseUrl, relaySecret).then((found) => (last = found));
  }
  return last;
}

async function check(supabaseUrl: string, relaySecret: string | undefined): Promise<FunctionCheck> {
  const checkedAt = new Date().toISOString();
  try {
    const response = await fetch(`${supabaseUrl}/functions/v1/${FUNCTION_NAME}/health`, {
      headers: relaySecret ? { [RELAY_HEADERS.secret]: relaySecret } : {},
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => ({}))) as { status?: string; relay?: "recognised" | "refused" };
    if (body.relay === "refused" && !(last.state === "answered" && last.relay === "refused")) {
      console.error(
        "The function does not recognise this site's ENQUIRY_RELAY_SECRET: no-JavaScript enquiries fail. Set the same value on both.",
      );
    }
    return { state: "answered", checkedAt, status: body.status === "ok" ? "ok" : "error", relay: body.relay ?? "not-sent" };
  } catch (error) {
    return { state: "unreachable", checkedAt, error: error instanceof Error ? error.message : String(error) };
  }
}
