/**
 * The enquiry flow: refuse what is malformed, store the enquiry (nothing is mailed before it is safe
 * in Postgres), answer, then send its mails in the background, and after them whatever else is due
 * (a redelivery run: mail is retried even where the scheduler is missing).
 *
 * Every endpoint is exact (docs/decisions/017): JSON in UTF-8 only (another charset is refused, bytes that
 * are not UTF-8 are a 400, never stored as U+FFFD), numbers in headers parsed strictly, any honeypot
 * value answered with the silent success a bot gets, and the same idempotency key with another message
 * refused (409) with the first message kept.
 */
import {
  ENQUIRY_HEADERS,
  isIdempotencyKey,
  MAX_BODY_BYTES,
  parseContactMessage,
  RELAY_HEADERS,
  type EnquiryResult,
} from "../_shared/contact-message.ts";
import { isUtf8Type, readBody } from "../_shared/read-body.ts";
import { ADDRESS_HEADERS, platformAddress, senderOf } from "./client-address.ts";
import type { Config } from "./config.ts";
import { sha256 } from "./crypto.ts";
import type { createDelivery } from "./delivery.ts";
import { json } from "./http.ts";
import { errorText, type Log } from "./log.ts";
import { mailboxOf } from "./mailbox.ts";
import type { Noise } from "./noise.ts";
import type { Store } from "./store.ts";
import { verdictOf } from "./wrong-secrets.ts";

export const MESSAGES = {
  invalid: "Please correct the highlighted fields.",
  notJson: "The request body must be JSON.",
  notUtf8: "The request body must be UTF-8.",
  unsupportedType: "Send the enquiry as application/json in UTF-8.",
  tooLarge: `The request body must be at most ${MAX_BODY_BYTES} bytes.`,
  tooSlow: "The request body did not arrive in time.",
  unreadable: "The request body broke off before its end.",
  badKey: "The Idempotency-Key header must be a UUID.",
  keyConflict: "This Idempotency-Key was already used for a different enquiry; the first one is kept. Send a new key.",
  relayRefused: "The site's relay was not recognised.",
  storage: "We could not save your enquiry. Please try again in a moment.",
  busy: "We are receiving unusually many enquiries. Please try again later or write to us directly.",
  rateLimited: "Too many enquiries. Please wait before trying again.",
} as const;

type Deps = {
  config: Config;
  /** Undefined when there is no database URL (config.ts reports it): nothing can be stored. */
  store: Store | undefined;
  delivery: ReturnType<typeof createDelivery> | undefined;
  log: Log;
  /** Bounds the lines load causes (a spent budget, a flood held): one warning per kind and interval. */
  noise: Noise;
  waitUntil: (work: Promise<unknown>) => void;
  redeliverAfterEnquiry: boolean;
};

const utf8 = new TextDecoder("utf-8", { fatal: true });
/** Milliseconds as the browser sends them: digits only, no sign, exponent, hex or fraction. */
const FILL_MS = /^\d{1,9}$/;

/**
 * Retry-After when the enquiry could not be stored now (the database unreachable, a lock or statement
 * past its time limit): a few seconds, long enough for a stuck lock or a restart to pass.
 */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/**
 * After an enquiry, a redelivery run (retries without a scheduler) starts at most this often per
 * instance: a burst of enquiries must not turn into a burst of runs, each with its sweeps and counts.
 */
export const AFTER_ENQUIRY_RUN_INTERVAL_MS = 30_000;

export function createEnquiryFlow({ config, store, delivery, log, noise, waitUntil, redeliverAfterEnquiry }: Deps) {
  let lastRunStartedAt = -Infinity;
  let addressHeadersLogged = false;
  let missingHeaderLogged = false;
  /** In production: an enquiry came without CLIENT_IP_HEADER (per-sender limits cannot work): /health says so. */
  const state = { clientHeaderMissing: false };

  /** Who the caller counts as for the per-sender limits (senderOf: an IPv4, or an IPv6 /64); null if unknown. */
  function clientSender(request: Request, relayed: boolean): string | null {
    if (!addressHeadersLogged) {
      addressHeadersLogged = true;
      // How the owner confirms CLIENT_IP_HEADER after a deploy (`npm run verify` does it from outside).
      log({
        event: "client-address-headers",
        configured: config.clientAddress.header,
        present: ADDRESS_HEADERS.filter((h) => request.headers.has(h)),
      });
    }
    if (relayed) {
      const relayedAddress = request.headers.get(RELAY_HEADERS.client)?.trim();
      // The same sender as the visitor's own browser calls (the platform's header, the same address):
      // one visitor is one sender whichever path they take (their double submit is recognised,
      // and both paths count against one limit).
      return relayedAddress ? senderOf(relayedAddress) : null;
    }
    const address = platformAddress(request, config.clientAddress);
    if (address === null && config.production) {
      state.clientHeaderMissing = true;
      if (!missingHeaderLogged) {
        missingHeaderLogged = true;
        log({
          level: "error",
          event: "client-address-header-missing",
          configured: config.clientAddress.header,
          hint: "run npm run verify to find the header the platform sets",
        });
      }
    }
    return address === null ? null : senderOf(address);
  }

  return Object.assign(enquiry, { state });

  /** The first of its kind in an interval is a warning carrying the count left out since; the rest stay info lines. */
  function underLoad(line: Record<string, unknown>, kind: "busy" | "held") {
    const verdict = noise(kind);
    if (verdict.first) Object.assign(line, { level: "warn", moreSincePrevious: verdict.counted });
  }

  async function enquiry(request: Request, cors: Record<string, string>, line: Record<string, unknown>) {
    const reply = (status: number, body: EnquiryResult, extra: Record<string, string> = {}) => {
      line.outcome = "code" in body && body.code ? body.code : body.status;
      return json(status, body, { ...cors, ...extra });
    };

    if (!isUtf8Type(request.headers.get("content-type") ?? "", "application/json")) {
      return reply(415, { status: "error", message: MESSAGES.unsupportedType });
    }
    const body = await readBody(request, MAX_BODY_BYTES, config.bodyTimeoutMs);
    if (body === "too-large") return reply(413, { status: "error", message: MESSAGES.tooLarge });
    if (body === "too-slow") return reply(408, { status: "error", message: MESSAGES.tooSlow });
    if (body === "unreadable") return reply(400, { status: "error", message: MESSAGES.unreadable });
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      return reply(400, { status: "error", message: MESSAGES.notUtf8 });
    }
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch {
      return reply(400, { status: "error", message: MESSAGES.notJson });
    }

    // Bots: a filled honeypot, whatever it holds, gets a success that stores nothing.
    if ((request.headers.get(ENQUIRY_HEADERS.trap) ?? "") !== "") {
      line.bot = "trap";
      return reply(200, { status: "ok", id: crypto.randomUUID() });
    }
    // A relay secret the function does not know was refused by the handler (counted, throttled, never
    // an alarm: wrong-secrets.ts); here it is absent or recognised.
    const relayed = verdictOf(request, "relay", config);
    if (relayed === "refused") return reply(401, { status: "error", code: "relay-refused", message: MESSAGES.relayRefused });
    // The fill time is the caller's own claim, so it may only tighten the confirmation's bounds, never
    // loosen them (confirmation_withheld, docs/decisions/031): one under MIN_FILL_MS (a bot, or a
    // person whose password manager filled the form in one step) or a malformed one is a quick Send,
    // an enquiry like any other whose sender gets fewer confirmations a day. No fill time (the site's
    // no-JS relay has none to give: its page is the same for everyone, decision 012) claims nothing.
    const fillMs = request.headers.get(ENQUIRY_HEADERS.fillMs);
    const quick = fillMs !== null && (!FILL_MS.test(fillMs.trim()) || Number(fillMs) < config.minFillMs);
    if (quick) line.bot = "quick-fill";

    const parsed = parseContactMessage(input);
    if (!parsed.ok) {
      line.fields = Object.keys(parsed.fieldErrors);
      return reply(422, { status: "invalid", fieldErrors: parsed.fieldErrors, message: MESSAGES.invalid });
    }
    const keyHeader = request.headers.get(ENQUIRY_HEADERS.idempotencyKey);
    if (keyHeader !== null && !isIdempotencyKey(keyHeader)) return reply(400, { status: "error", message: MESSAGES.badKey });
    const key = keyHeader ?? crypto.randomUUID();

    const sender = clientSender(request, relayed === "recognised");
    if (sender === null) line.client = "unknown";
    const clientHash = sender === null ? "" : await sha256(`${config.ipHashSalt}:${sender}`);
    const storageFailed = () =>
      reply(503, { status: "error", message: MESSAGES.storage }, { "Retry-After": String(STORAGE_RETRY_AFTER_SECONDS) });
    if (!store) return storageFailed();
    let stored;
    try {
      stored = await store.submit(key, parsed.message, mailboxOf(parsed.message.email), clientHash, config.rateLimit, {
        claim: delivery?.canSend ?? false,
        quick,
      });
    } catch (error) {
      line.error = errorText(error);
      return storageFailed();
    }
    switch (stored.outcome) {
      case "rate-limited":
        return reply(
          429,
          { status: "rate-limited", retryAfterSeconds: stored.retryAfterSeconds, message: MESSAGES.rateLimited },
          {
            "Retry-After": String(stored.retryAfterSeconds),
          },
        );
      case "busy":
        // Load, which anyone can cause: a warning once per interval with the count since (docs/decisions/036).
        underLoad(line, "busy");
        return reply(503, { status: "error", code: "busy", message: MESSAGES.busy }, { "Retry-After": String(stored.retryAfterSeconds) });
      case "conflict":
        line.enquiry = stored.enquiryId;
        return reply(409, { status: "error", code: "idempotency-conflict", message: MESSAGES.keyConflict });
    }
    line.enquiry = stored.enquiryId;
    line.duplicate = stored.outcome === "duplicate";
    if (stored.outcome === "held") {
      // Past the global rate: stored and answered as usual; its mails wait for the digest (decision 013).
      line.held = true;
      underLoad(line, "held");
    }
    if ((stored.outcome === "stored" || stored.outcome === "held") && delivery) {
      // The enquiry is safe: its mails go out after the answer (held ones are not claimed), then a
      // redelivery run sends what else is due, if no other run is under way.
      const { enquiryId, claimed } = stored;
      const runAfter = redeliverAfterEnquiry && performance.now() - lastRunStartedAt >= AFTER_ENQUIRY_RUN_INTERVAL_MS;
      if (runAfter) lastRunStartedAt = performance.now();
      waitUntil(
        delivery
          .deliverEnquiry(claimed)
          .catch((error) => log({ level: "error", event: "mail-error", enquiry: enquiryId, error: errorText(error) }))
          .then(() => (runAfter ? delivery.redeliver("after-enquiry") : undefined))
          .catch((error) => log({ level: "error", event: "redelivery-error", error: errorText(error) })),
      );
    }
    return reply(200, { status: "ok", id: stored.enquiryId });
  }
}
