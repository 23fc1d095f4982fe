/**
 * send-contact-email as a plain `(Request) => Promise<Response>`, built from its dependencies so
 * tests can call it directly or over HTTP. This file is the HTTP surface: routes, CORS on every
 * answer, one log line per request. The work is in enquiry.ts and delivery.ts.
 */
import { corsHeaders } from "../_shared/cors.ts";
import type { Config } from "./config.ts";
import { createDelivery, type RedeliveryReport } from "./delivery.ts";
import { createEnquiryFlow, MESSAGES as ENQUIRY_MESSAGES } from "./enquiry.ts";
import { json, timingSafeEqual } from "./http.ts";
import { defaultLog, errorText, type Log } from "./log.ts";
import type { Mailer } from "./mailer.ts";
import type { Store } from "./store.ts";

export type Deps = {
  config: Config;
  store: Store;
  mailer: Mailer;
  /**
   * Keeps work going after the response is sent: `EdgeRuntime.waitUntil` on Supabase. Mail goes
   * out this way, so the visitor's answer never waits on the mail provider.
   */
  waitUntil?: (work: Promise<unknown>) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  log?: Log;
};

export const REDELIVERY_SECRET_HEADER = "x-redelivery-secret";

export type RedeliveryResult = RedeliveryReport | { status: "error"; message: string };

const MESSAGES = {
  method: "Use POST.",
  origin: "This origin may not send enquiries.",
  notFound: "Not found.",
  unauthorized: "Unauthorized.",
} as const;

export function createHandler({ config, store, mailer, waitUntil = (work) => void work, now = Date.now, sleep, log = defaultLog }: Deps) {
  const delivery = createDelivery({ config, store, mailer, log, now, sleep });
  const enquiry = createEnquiryFlow({ config, store, delivery, log, waitUntil });

  async function redeliver(request: Request, line: Record<string, unknown>) {
    const given = request.headers.get(REDELIVERY_SECRET_HEADER) ?? "";
    if (!config.redeliverySecret || !timingSafeEqual(given, config.redeliverySecret)) {
      line.outcome = "unauthorized";
      return json(401, { status: "error", message: MESSAGES.unauthorized });
    }
    try {
      const report = await delivery.redeliver();
      Object.assign(line, { outcome: "ok", ...report, status: undefined });
      if (report.undeliveredTotal > 0) line.level = "warn";
      return json(200, report satisfies RedeliveryResult);
    } catch (error) {
      line.error = errorText(error);
      return json(503, { status: "error", message: ENQUIRY_MESSAGES.storage } satisfies RedeliveryResult);
    }
  }

  return async function handle(request: Request): Promise<Response> {
    const started = now();
    const path = new URL(request.url).pathname;
    const line: Record<string, unknown> = { method: request.method, path };
    const origin = request.headers.get("origin");
    const cors = corsHeaders(origin, config.allowedOrigins);
    let response: Response;

    if (/\/send-contact-email\/redeliver\/?$/.test(path)) {
      response = request.method === "POST"
        ? await redeliver(request, line)
        : json(405, { status: "error", message: MESSAGES.method }, { Allow: "POST" });
    } else if (!/\/send-contact-email\/?$/.test(path)) {
      response = json(404, { status: "error", message: MESSAGES.notFound }, cors);
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
