/**
 * send-contact-email as a plain `(Request) => Promise<Response>`, built from its dependencies so
 * tests can call it directly or over HTTP. This file is the HTTP surface: one route per path (and no
 * other path answers), CORS on the enquiry's answers, one log line per request. The work is in
 * enquiry.ts, delivery.ts, health.ts and resend-webhook.ts. A wrong secret (the relay's, the owner's) is
 * refused here, before any work, counted and throttled per sender (wrong-secrets.ts).
 *
 * Paths: the hosted runtime hands a function its path from the function's name on
 * (/send-contact-email/…); the local stack serves the URL supabase-js calls (/functions/v1/…). Both
 * spellings are accepted, nothing else: not a path that merely ends the same way, not a request
 * target that names another host.
 */
import type { ConfigProblem } from "../_shared/config-checks.ts";
import { FUNCTION_NAME } from "../_shared/contact-message.ts";
import { corsHeaders } from "../_shared/cors.ts";
import type { Config } from "./config.ts";
import { createDelivery, type RedeliveryReport } from "./delivery.ts";
import { createEnquiryFlow, MESSAGES as ENQUIRY_MESSAGES } from "./enquiry.ts";
import { createHealth } from "./health.ts";
import { json, notFound } from "./http.ts";
import { defaultLog, errorText, type Log } from "./log.ts";
import type { Mailer } from "./mailer.ts";
import { createNoise, type Noise } from "./noise.ts";
import { createResendWebhook } from "./resend-webhook.ts";
import type { Store } from "./store.ts";
import { createWrongSecrets, REDELIVERY_SECRET_HEADER, type SecretKind, verdictOf } from "./wrong-secrets.ts";

export { REDELIVERY_SECRET_HEADER };

export type Deps = {
  config: Config;
  /** What config.ts found wrong (reported by /health). */
  problems?: readonly ConfigProblem[];
  /** Deliverability warnings (config.ts): /health lists them to the owner; they do not make it an error. */
  warnings?: readonly ConfigProblem[];
  store: Store | undefined;
  mailer: Mailer | undefined;
  /**
   * Keeps work going after the response is sent: `EdgeRuntime.waitUntil` on Supabase. Mail goes
   * out this way, so the visitor's answer never waits on the mail provider.
   */
  waitUntil?: (work: Promise<unknown>) => void;
  /** A redelivery run in the background after each new enquiry (default true; tests that count attempts turn it off). */
  redeliverAfterEnquiry?: boolean;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  log?: Log;
};

export type RedeliveryResult = RedeliveryReport | { status: "error"; message: string };

const MESSAGES = {
  method: "Use POST.",
  methodGet: "Use GET.",
  origin: "This origin may not send enquiries.",
  target: "Bad request target.",
  unauthorized: "Unauthorized.",
  unexpected: "Something went wrong. Please try again in a moment.",
} as const;

type Route = "enquiry" | "redeliver" | "health" | "relay-check" | "resend-webhook";
const ROUTES: Record<string, Route> = Object.fromEntries(
  [`/${FUNCTION_NAME}`, `/functions/v1/${FUNCTION_NAME}`].flatMap((base) => [
    [base, "enquiry"],
    [`${base}/redeliver`, "redeliver"],
    [`${base}/health`, "health"],
    [`${base}/relay-check`, "relay-check"],
    [`${base}/resend-webhook`, "resend-webhook"],
  ]),
);

export function createHandler({
  config,
  problems = [],
  warnings = [],
  store,
  mailer,
  waitUntil = (work) => void work,
  redeliverAfterEnquiry = true,
  now = Date.now,
  sleep,
  log = defaultLog,
}: Deps) {
  const delivery = store ? createDelivery({ config, store, mailer, log, now, sleep }) : undefined;
  const noise = createNoise(now);
  const enquiry = createEnquiryFlow({ config, store, delivery, log, noise, waitUntil, redeliverAfterEnquiry });
  const wrongSecrets = createWrongSecrets({ config, now });
  const health = createHealth({
    config,
    problems,
    warnings,
    store,
    clientHeaderMissing: () => enquiry.state.clientHeaderMissing,
    wrongSecrets: wrongSecrets.report,
    now,
  });
  const resendWebhook = createResendWebhook({ config, store });
  const unauthorized = { status: "error", message: MESSAGES.unauthorized } as const;
  const relayRefused = { status: "error", code: "relay-refused", message: ENQUIRY_MESSAGES.relayRefused } as const;

  /** A wrong secret: 401, or 429 with Retry-After once its sender is past its budget. Info level: anyone can send one. */
  function refuseSecret(
    request: Request,
    kind: SecretKind,
    line: Record<string, unknown>,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    const wait = wrongSecrets.refused(request, kind);
    line.outcome = wait === undefined ? `wrong-${kind}-secret` : "throttled";
    return wait === undefined ? json(401, body, headers) : json(429, body, { ...headers, "Retry-After": String(wait) });
  }

  async function redeliver(request: Request, line: Record<string, unknown>) {
    const owner = verdictOf(request, "owner", config);
    if (owner === "refused") return refuseSecret(request, "owner", line, unauthorized);
    if (owner === "absent") {
      line.outcome = "unauthorized";
      return json(401, unauthorized);
    }
    if (!delivery) return json(503, { status: "error", message: ENQUIRY_MESSAGES.storage } satisfies RedeliveryResult);
    try {
      const report = await delivery.redeliver("scheduler");
      Object.assign(line, { outcome: "ok", ...report, status: undefined, retention: undefined });
      if (report.undeliveredTotal > 0) line.level = "warn";
      return json(200, report satisfies RedeliveryResult);
    } catch (error) {
      line.error = errorText(error);
      return json(503, { status: "error", message: ENQUIRY_MESSAGES.storage } satisfies RedeliveryResult);
    }
  }

  return async function handle(request: Request): Promise<Response> {
    const started = now();
    const origin = request.headers.get("origin");
    const cors = corsHeaders(origin, config.allowedOrigins);
    // A URL the runtime cannot read (a Host such as "[::1" makes request.url no URL at all) is the
    // caller's malformed request: a 400 like any other bad target, never a fault of ours.
    const url = urlOf(request);
    const route = url ? ROUTES[url.pathname] : undefined;
    const line: Record<string, unknown> = { method: request.method, path: route ? url!.pathname : url ? "(other)" : "(unreadable)" };
    const host = request.headers.get("host");
    let response: Response;

    try {
      if (!url || (host !== null && url.host !== host.toLowerCase())) {
        // An absolute-form request target ("POST http://other.example/…") naming another host, or none readable.
        line.outcome = "bad-target";
        response = json(400, { status: "error", message: MESSAGES.target }, cors);
      } else if ((route === "health" || route === "relay-check") && request.method !== "GET" && request.method !== "HEAD") {
        response = json(405, { status: "error", message: MESSAGES.methodGet }, { Allow: "GET" });
      } else if (route === "health") {
        const owner = verdictOf(request, "owner", config);
        response = owner === "refused" ? refuseSecret(request, "owner", line, unauthorized) : await health(request, owner === "recognised");
      } else if (route === "relay-check") {
        // The site's own check of its relay secret (app/server/function-check.server.ts): the answer a
        // relayed enquiry would get, and nothing else; the site rings its owner's alarm when refused.
        const relay = verdictOf(request, "relay", config);
        if (relay === "refused") response = refuseSecret(request, "relay", line, relayRefused);
        else if (relay === "absent") response = json(401, relayRefused);
        else response = json(200, { status: "ok", relay });
      } else if (route === "redeliver") {
        response =
          request.method === "POST"
            ? await redeliver(request, line)
            : json(405, { status: "error", message: MESSAGES.method }, { Allow: "POST" });
      } else if (route === "resend-webhook") {
        response =
          request.method === "POST"
            ? await resendWebhook(request, line)
            : json(405, { status: "error", message: MESSAGES.method }, { Allow: "POST" });
      } else if (route !== "enquiry") {
        response = notFound();
      } else if (request.method === "OPTIONS") {
        response = new Response(null, { status: 204, headers: cors });
      } else if (origin && !cors["Access-Control-Allow-Origin"]) {
        response = json(403, { status: "error", message: MESSAGES.origin }, cors);
      } else if (request.method !== "POST") {
        response = json(405, { status: "error", message: MESSAGES.method }, { ...cors, Allow: "POST, OPTIONS" });
      } else if (verdictOf(request, "relay", config) === "refused") {
        response = refuseSecret(request, "relay", line, relayRefused, cors);
      } else {
        response = await enquiry(request, cors, line);
      }
    } catch (error) {
      // A fault of ours: logged with its cause, answered without it (no framework or runtime text); at
      // error level once per kind and interval, however often a caller repeats it (noise.ts).
      const text = errorText(error);
      Object.assign(line, { error: text }, faultLevel(noise, text));
      response = json(500, { status: "error", message: MESSAGES.unexpected }, cors);
    }

    log({ ...line, status: response.status, ms: now() - started });
    return response;
  };
}

function urlOf(request: Request): URL | undefined {
  try {
    return new URL(request.url);
  } catch {
    return undefined;
  }
}

/** A fault's line: error level for the first of its kind in an interval (with the count of those left out), info after. */
function faultLevel(noise: Noise, error: string): Record<string, unknown> {
  const verdict = noise(`fault: ${error}`);
  return verdict.first ? { level: "error", moreSincePrevious: verdict.counted } : { level: "info", counted: true };
}

/**
 * Deno.serve's `onError`: what escaped the handler (index.ts's own wiring) is answered as the handler
 * answers a fault, with the usual headers, and logged in one line without a stack, bounded as above.
 */
export function createFaultAnswer({ config, log = defaultLog, now = Date.now }: Pick<Deps, "config" | "log" | "now">) {
  const noise = createNoise(now);
  return (error: unknown): Response => {
    const text = errorText(error);
    log({ event: "unhandled-fault", error: text, ...faultLevel(noise, text) });
    return json(500, { status: "error", message: MESSAGES.unexpected }, corsHeaders(null, config.allowedOrigins));
  };
}
