/**
 * The enquiry flow: refuse what is malformed, store the enquiry (nothing is mailed before it is safe
 * in Postgres), answer, then send its mails in the background.
 */
import {
  ENQUIRY_HEADERS,
  isIdempotencyKey,
  MAX_BODY_BYTES,
  parseContactMessage,
  RELAY_HEADERS,
  type EnquiryResult,
} from "../_shared/contact-message.ts";
import type { Config } from "./config.ts";
import type { createDelivery } from "./delivery.ts";
import { readBody } from "../_shared/read-body.ts";
import { json, sha256, timingSafeEqual } from "./http.ts";
import { errorText, type Log } from "./log.ts";
import type { Store } from "./store.ts";

export const MESSAGES = {
  invalid: "Please correct the highlighted fields.",
  tooFast: "The form was sent too quickly. Please try again.",
  notJson: "The request body must be JSON.",
  unsupportedType: "Send the enquiry as application/json.",
  tooLarge: `The request body must be at most ${MAX_BODY_BYTES} bytes.`,
  tooSlow: "The request body did not arrive in time.",
  badKey: "The Idempotency-Key header must be a UUID.",
  storage: "We could not save your enquiry. Please try again in a moment.",
  rateLimited: "Too many enquiries. Please wait before trying again.",
} as const;

/** Headers that say who the caller is on some platform; logged by name (never value) once per isolate. */
const ADDRESS_HEADERS = ["cf-connecting-ip", "x-real-ip", "x-forwarded-for", "x-envoy-external-address", "forwarded"];

type Deps = {
  config: Config;
  store: Store;
  delivery: ReturnType<typeof createDelivery>;
  log: Log;
  waitUntil: (work: Promise<unknown>) => void;
};

export function createEnquiryFlow({ config, store, delivery, log, waitUntil }: Deps) {
  let addressHeadersLogged = false;

  /** The site's no-JS relay, vouched for by the shared secret. */
  function isRelayed(request: Request): boolean {
    return Boolean(config.relaySecret) && timingSafeEqual(request.headers.get(RELAY_HEADERS.secret) ?? "", config.relaySecret!);
  }

  /**
   * The caller's address: the relayed visitor's, else the one header the platform sets
   * (CLIENT_IP_HEADER), never a header a visitor can write. Null when neither is there: then no
   * per-client limit applies, rather than one bucket shared by every such visitor.
   */
  function clientAddress(request: Request): string | null {
    if (!addressHeadersLogged) {
      addressHeadersLogged = true;
      // How the owner confirms CLIENT_IP_HEADER after a deploy: this line names the headers that arrived.
      log({ event: "client-address-headers", configured: config.clientIpHeader, present: ADDRESS_HEADERS.filter((h) => request.headers.has(h)) });
    }
    if (isRelayed(request)) {
      const relayed = request.headers.get(RELAY_HEADERS.client)?.trim();
      return relayed ? `relay:${relayed}` : null;
    }
    return request.headers.get(config.clientIpHeader)?.trim() || null;
  }

  return async function enquiry(request: Request, cors: Record<string, string>, line: Record<string, unknown>) {
    const reply = (status: number, body: EnquiryResult, extra: Record<string, string> = {}) => {
      line.outcome = body.status;
      return json(status, body, { ...cors, ...extra });
    };

    if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
      return reply(415, { status: "error", message: MESSAGES.unsupportedType });
    }
    const body = await readBody(request, MAX_BODY_BYTES, config.bodyTimeoutMs);
    if (body === "too-large") return reply(413, { status: "error", message: MESSAGES.tooLarge });
    if (body === "too-slow") return reply(408, { status: "error", message: MESSAGES.tooSlow });
    let input: unknown;
    try {
      input = JSON.parse(new TextDecoder().decode(body));
    } catch {
      return reply(400, { status: "error", message: MESSAGES.notJson });
    }

    // Bots: a filled honeypot gets a success that stores nothing; a form filled faster than a
    // person can is refused with a message a person can act on (the client keeps the values). The
    // site's no-JS relay has no fill time to give (its page is the same for everyone, decision 012):
    // it vouches for the post with the relay secret instead.
    if ((request.headers.get(ENQUIRY_HEADERS.trap) ?? "") !== "") {
      line.bot = "trap";
      return reply(200, { status: "ok", id: crypto.randomUUID() });
    }
    const fillMs = Number(request.headers.get(ENQUIRY_HEADERS.fillMs) || NaN);
    if (!isRelayed(request) && (!Number.isFinite(fillMs) || fillMs < config.minFillMs)) {
      line.bot = "too-fast";
      return reply(400, { status: "too-fast", message: MESSAGES.tooFast });
    }

    const parsed = parseContactMessage(input);
    if (!parsed.ok) {
      line.fields = Object.keys(parsed.fieldErrors);
      return reply(422, { status: "invalid", fieldErrors: parsed.fieldErrors, message: MESSAGES.invalid });
    }
    const keyHeader = request.headers.get(ENQUIRY_HEADERS.idempotencyKey);
    if (keyHeader !== null && !isIdempotencyKey(keyHeader)) return reply(400, { status: "error", message: MESSAGES.badKey });
    const key = keyHeader ?? crypto.randomUUID();

    const address = clientAddress(request);
    if (address === null) line.client = "unknown";
    const clientHash = address === null ? null : await sha256(`${config.ipHashSalt}:${address}`);
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
    if (stored.outcome === "held") {
      // Past the global rate: stored and answered as usual; its mails wait for the digest (decision 013).
      line.held = true;
      line.level = "warn";
    }
    if (stored.outcome === "stored" || stored.outcome === "held") {
      // The enquiry is safe: the mails go out after the answer (held ones are not claimed). What fails
      // waits for redelivery.
      const enquiryId = stored.enquiryId;
      waitUntil(
        delivery.deliverEnquiry(enquiryId).catch((error) =>
          log({ level: "error", event: "mail-error", enquiry: enquiryId, error: errorText(error) })
        ),
      );
    }
    return reply(200, { status: "ok", id: stored.enquiryId });
  };
}
