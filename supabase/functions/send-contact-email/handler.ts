/**
 * send-contact-email as a plain `(Request) => Promise<Response>`, built from its dependencies so
 * tests can call it directly or over HTTP. Order of work: refuse what is malformed, store the
 * enquiry (nothing is mailed before it is safe in Postgres), then try the mails.
 */
import {
  ENQUIRY_HEADERS,
  isIdempotencyKey,
  MAX_BODY_BYTES,
  parseContactMessage,
  RELAY_HEADERS,
  type EnquiryResult,
} from "../_shared/contact-message.ts";
import { corsHeaders } from "../_shared/cors.ts";
import type { Config } from "./config.ts";
import { studioNotification, visitorConfirmation } from "./emails.ts";
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
  log?: (line: Record<string, unknown>) => void;
};

export const REDELIVERY_SECRET_HEADER = "x-redelivery-secret";

export type RedeliveryResult = { status: "ok"; sent: number; failed: number } | { status: "error"; message: string };

const MESSAGES = {
  invalid: "Please correct the highlighted fields.",
  tooFast: "The form was sent too quickly. Please try again.",
  notJson: "The request body must be JSON.",
  unsupportedType: "Send the enquiry as application/json.",
  tooLarge: `The request body must be at most ${MAX_BODY_BYTES} bytes.`,
  method: "Use POST.",
  origin: "This origin may not send enquiries.",
  badKey: "The Idempotency-Key header must be a UUID.",
  storage: "We could not save your enquiry. Please try again in a moment.",
  rateLimited: "Too many enquiries. Please wait before trying again.",
  notFound: "Not found.",
  unauthorized: "Unauthorized.",
} as const;

export function createHandler({ config, store, mailer, waitUntil = (work) => void work, now = Date.now, log = defaultLog }: Deps) {
  async function deliver(enquiryId: string | null, limit: number) {
    const claimed = await store.claim(enquiryId, limit, config.maxAttempts);
    const results = await Promise.all(
      claimed.map(async ({ enquiryId: id, kind, message }) => {
        const email =
          kind === "studio"
            ? studioNotification(message, { studioInbox: config.studioInbox, enquiryId: id })
            : visitorConfirmation(message, { studioName: config.studioName, studioInbox: config.studioInbox });
        try {
          await mailer.send(email, `${id}:${kind}`);
        } catch (error) {
          await store.markFailed(id, kind, errorText(error)).catch(() => undefined);
          return false;
        }
        // Sent: if recording that fails, the claim expires and the mail may go twice, never zero times.
        await store.markSent(id, kind).catch(() => undefined);
        return true;
      }),
    );
    return { sent: results.filter(Boolean).length, failed: results.filter((ok) => !ok).length };
  }

  async function enquiry(request: Request, cors: Record<string, string>, line: Record<string, unknown>) {
    const reply = (status: number, body: EnquiryResult, extra: Record<string, string> = {}) => {
      line.outcome = body.status;
      return json(status, body, { ...cors, ...extra });
    };

    if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
      return reply(415, { status: "error", message: MESSAGES.unsupportedType });
    }
    const body = await readCapped(request, MAX_BODY_BYTES);
    if (body === null) return reply(413, { status: "error", message: MESSAGES.tooLarge });
    let input: unknown;
    try {
      input = JSON.parse(body);
    } catch {
      return reply(400, { status: "error", message: MESSAGES.notJson });
    }

    // Bots: a filled honeypot gets a success that stores nothing; a form filled faster than a
    // person can is refused with a message a person can act on (the client keeps the values).
    if ((request.headers.get(ENQUIRY_HEADERS.trap) ?? "") !== "") {
      line.bot = "trap";
      return reply(200, { status: "ok", id: crypto.randomUUID() });
    }
    const fillMs = Number(request.headers.get(ENQUIRY_HEADERS.fillMs));
    if (!Number.isFinite(fillMs) || fillMs < config.minFillMs) {
      line.bot = "too-fast";
      return reply(400, { status: "error", message: MESSAGES.tooFast });
    }

    const parsed = parseContactMessage(input);
    if (!parsed.ok) {
      line.fields = Object.keys(parsed.fieldErrors);
      return reply(422, { status: "invalid", fieldErrors: parsed.fieldErrors, message: MESSAGES.invalid });
    }
    const keyHeader = request.headers.get(ENQUIRY_HEADERS.idempotencyKey);
    if (keyHeader !== null && !isIdempotencyKey(keyHeader)) return reply(400, { status: "error", message: MESSAGES.badKey });
    const key = keyHeader ?? crypto.randomUUID();

    const clientHash = await sha256(`${config.ipHashSalt}:${clientAddress(request, config)}`);
    let stored;
    try {
      stored = await store.submit(key, parsed.message, clientHash, config.rateLimit);
    } catch (error) {
      line.error = errorText(error);
      return reply(503, { status: "error", message: MESSAGES.storage });
    }
    if (stored.outcome === "rate-limited") {
      const seconds = stored.retryAfterSeconds;
      return reply(429, { status: "rate-limited", retryAfterSeconds: seconds, message: MESSAGES.rateLimited }, {
        "Retry-After": String(seconds),
      });
    }
    line.enquiry = stored.enquiryId;
    line.duplicate = stored.outcome === "duplicate";
    if (stored.outcome === "stored") {
      // The enquiry is safe: the mails go out after the answer. A failure leaves the delivery
      // pending (with its attempt count and error) for the scheduled redelivery.
      const enquiryId = stored.enquiryId;
      waitUntil(
        deliver(enquiryId, 2)
          .then(({ failed }) => failed > 0 && log({ fn: "send-contact-email", event: "mail-pending", enquiry: enquiryId, failed }))
          .catch((error) => log({ fn: "send-contact-email", event: "mail-error", enquiry: enquiryId, error: errorText(error) })),
      );
    }
    return reply(200, { status: "ok", id: stored.enquiryId });
  }

  async function redeliver(request: Request, line: Record<string, unknown>) {
    const given = request.headers.get(REDELIVERY_SECRET_HEADER) ?? "";
    if (!config.redeliverySecret || !timingSafeEqual(given, config.redeliverySecret)) {
      line.outcome = "unauthorized";
      return json(401, { status: "error", message: MESSAGES.unauthorized });
    }
    let sent = 0;
    let failed = 0;
    try {
      // Batches until nothing claimable is left; failed ones wait for the next scheduled run.
      for (let batch = 0; batch < 20; batch++) {
        const result = await deliver(null, 50);
        sent += result.sent;
        failed += result.failed;
        if (result.sent + result.failed < 50) break;
      }
    } catch (error) {
      line.error = errorText(error);
      return json(503, { status: "error", message: MESSAGES.storage } satisfies RedeliveryResult);
    }
    Object.assign(line, { outcome: "ok", sent, failed });
    return json(200, { status: "ok", sent, failed } satisfies RedeliveryResult);
  }

  return async function handle(request: Request): Promise<Response> {
    const started = now();
    const path = new URL(request.url).pathname;
    const line: Record<string, unknown> = { fn: "send-contact-email", method: request.method, path };
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

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** The body as text, or null when it is larger than `limit` bytes (read no further than that). */
async function readCapped(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The platform's client address, or the visitor's address vouched for by the site's relay secret. */
function clientAddress(request: Request, config: Config): string {
  const relayed = request.headers.get(RELAY_HEADERS.client);
  if (relayed && config.relaySecret && timingSafeEqual(request.headers.get(RELAY_HEADERS.secret) ?? "", config.relaySecret)) {
    return `relay:${relayed}`;
  }
  return request.headers.get(config.clientIpHeader)?.trim() || "unknown";
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function timingSafeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i % x.length] ?? 0) ^ (y[i % y.length] ?? 0);
  return diff === 0 && x.length > 0;
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function defaultLog(line: Record<string, unknown>) {
  console.log(JSON.stringify({ time: new Date().toISOString(), ...line }));
}
