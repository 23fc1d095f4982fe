/**
 * send-contact-email as a plain `(Request) => Promise<Response>`, built from its dependencies so
 * tests can call it directly or over HTTP. This file is the HTTP surface: one route per path (and no
 * other path answers), CORS on the enquiry's answers, one log line per request. The work is in
 * enquiry.ts, delivery.ts, health.ts and resend-webhook.ts.
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
import { timingSafeEqual } from "./crypto.ts";
import { createDelivery, type RedeliveryReport } from "./delivery.ts";
import { createEnquiryFlow, MESSAGES as ENQUIRY_MESSAGES } from "./enquiry.ts";
import { createHealth, REDELIVERY_SECRET_HEADER } from "./health.ts";
import { json } from "./http.ts";
import { defaultLog, errorText, type Log } from "./log.ts";
import type { Mailer } from "./mailer.ts";
import { createResendWebhook } from "./resend-webhook.ts";
import type { Store } from "./store.ts";

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
  notFound: "Not found.",
  target: "Bad request target.",
  unauthorized: "Unauthorized.",
} as const;

type Route = "enquiry" | "redeliver" | "health" | "resend-webhook";
const ROUTES: Record<string, Route> = Object.fromEntries(
  [`/${FUNCTION_NAME}`, `/functions/v1/${FUNCTION_NAME}`].flatMap((base) => [
    [base, "enquiry"],
    [`${base}/redeliver`, "redeliver"],
    [`${base}/health`, "health"],
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
  const enquiry = createEnquiryFlow({ config, store, delivery, log, waitUntil, redeliverAfterEnquiry });
  const health = createHealth({ config, problems, warnings, store, clientHeaderMissing: () => enquiry.state.clientHeaderMissing, now });
  const resendWebhook = createResendWebhook({ config, store });

  async function redeliver(request: Request, line: Record<string, unknown>) {
    const given = request.headers.get(REDELIVERY_SECRET_HEADER) ?? "";
    if (!config.redeliverySecret || !timingSafeEqual(given, config.redeliverySecret)) {
      line.outcome = "unauthorized";
      return json(401, { status: "error", message: MESSAGES.unauthorized });
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
    const url = new URL(request.url);
    const route = ROUTES[url.pathname];
    const line: Record<string, unknown> = { method: request.method, path: route ? url.pathname : "(other)" };
    const origin = request.headers.get("origin");
    const cors = corsHeaders(origin, config.allowedOrigins);
    const host = request.headers.get("host");
    let response: Response;

    if (host !== null && url.host !== host.toLowerCase()) {
      // An absolute-form request target ("POST http://other.example/…") naming another host.
      response = json(400, { status: "error", message: MESSAGES.target });
    } else if (route === "health") {
      response =
        request.method === "GET" || request.method === "HEAD"
          ? await health(request)
          : json(405, { status: "error", message: MESSAGES.methodGet }, { Allow: "GET" });
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
      response = json(404, { status: "error", message: MESSAGES.notFound });
    } else if (request.method === "OPTIONS") {
      response = new Response(null, { status: 204, headers: cors });
    } else if (origin && !cors["Access-Control-Allow-Origin"]) {
      response = json(403, { status: "error", message: MESSAGES.origin }, cors);
    } else if (request.method !== "POST") {
      response = json(405, { status: "error", message: MESSAGES.method }, { ...cors, Allow: "POST, OPTIONS" });
    } else {
      response = await enquiry(request, cors, line);
    }

    log({ ...line, status: response.status, ms: now() - started });
    return response;
  };
}
