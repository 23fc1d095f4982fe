/**
 * Resend's webhook (POST /send-contact-email/resend-webhook): failures Resend reports after it
 * accepted a mail. Resend accepts mail to an address that does not exist and says so later, so
 * without this a wrong STUDIO_INBOX or a visitor's typo would be recorded as "sent" for good.
 *
 * Requests are signed as Svix signs them (Resend's documented scheme, which is Standard Webhooks'
 * under `svix-` header names): HMAC-SHA256, keyed with the base64 part of RESEND_WEBHOOK_SECRET
 * ("whsec_…"), over `${svix-id}.${svix-timestamp}.${body}`, sent as "v1,<base64>" entries in
 * svix-signature; the timestamp must be within 5 minutes. The `standardwebhooks` library checks it.
 * Anything else is 401 and changes nothing. A bounce, complaint, failure or suppression marks its delivery dead (found
 * by Resend's email id, or by the tags the mail was sent with), and for a bounce, complaint or
 * suppression records the address Resend reported, exactly, as undeliverable: no confirmation goes
 * there again (a bounce of one alias says nothing of the mailbox's other spellings: docs/decisions/031),
 * unless the bounce refused the mail's content, not its address (docs/decisions/036). Each event is
 * acted on once: its svix-id is recorded with its effect, and a repeat is answered 200 and ignored
 * (docs/decisions/023). Without a webhook secret the path answers as any unknown path does: 404.
 */
import { Webhook } from "standardwebhooks";
import { readBody } from "../_shared/read-body.ts";
import type { Config } from "./config.ts";
import { json, notFound } from "./http.ts";
import { errorText, maskAddresses } from "./log.ts";
import { CONTENT_REFUSED, type DeliveryKind, type ReportedFailure, type Store } from "./store.ts";

/** Webhook bodies are small; anything larger is not Resend's. */
const MAX_WEBHOOK_BYTES = 64 * 1024;

/** How long an event's svix-id is kept to ignore its repeats: Svix retries an event for about 28 hours. */
export const WEBHOOK_EVENT_KEEP_SECONDS = 7 * 86_400;

const FAILURES: Record<string, ReportedFailure["source"]> = {
  "email.bounced": "bounced",
  "email.complained": "complained",
  "email.failed": "failed",
  "email.suppressed": "suppressed",
};

/**
 * Bounce subtypes (Resend passes on Amazon SES's) that refuse the mail's content, not its address: on
 * the studio's notification, what the visitor wrote. Not an address's undeliverability, and not the
 * owner's alarm (docs/decisions/036).
 */
const CONTENT_BOUNCES = new Set(["ContentRejected", "AttachmentRejected"]);

type Event = {
  type?: string;
  data?: {
    email_id?: string;
    to?: string[] | string;
    tags?: Record<string, string> | { name: string; value: string }[];
    bounce?: { message?: string; type?: string; subType?: string };
    failed?: { reason?: string };
    suppressed?: { message?: string; type?: string };
  };
};

/**
 * Whether `body` carries a valid signature of `secret` ("whsec_…") at a time within 5 minutes. Svix's
 * scheme is Standard Webhooks' under `svix-` header names, so the `standardwebhooks` library checks it.
 */
export function verifySignature(secret: string, headers: Headers, body: string): boolean {
  try {
    new Webhook(secret).verify(
      body,
      {
        "webhook-id": headers.get("svix-id") ?? "",
        "webhook-timestamp": headers.get("svix-timestamp") ?? "",
        "webhook-signature": headers.get("svix-signature") ?? "",
      },
      { jsonParse: false },
    );
    return true;
  } catch {
    // A bad signature, a stale or missing timestamp, or a secret that is not base64: not Resend's.
    return false;
  }
}

function tagsOf(event: Event): Record<string, string> {
  const tags = event.data?.tags;
  if (Array.isArray(tags)) return Object.fromEntries(tags.map(({ name, value }) => [name, value]));
  return tags ?? {};
}

export function createResendWebhook({ config, store }: { config: Config; store: Store | undefined }) {
  return async function resendWebhook(request: Request, line: Record<string, unknown>): Promise<Response> {
    const secret = config.mail.transport === "resend" ? config.mail.webhookSecret : undefined;
    if (!secret) {
      // The owner's /health says the webhook is missing; a stranger learns nothing, not even a setting's name.
      line.outcome = "not-configured";
      return notFound();
    }
    const body = await readBody(request, MAX_WEBHOOK_BYTES, config.bodyTimeoutMs);
    if (typeof body === "string") {
      line.outcome = body;
      return json({ "too-large": 413, "too-slow": 408, unreadable: 400 }[body], { status: "error", message: "Not a Resend webhook." });
    }
    const text = new TextDecoder().decode(body);
    if (!verifySignature(secret, request.headers, text)) {
      line.outcome = "bad-signature";
      line.level = "warn";
      return json(401, { status: "error", message: "Invalid signature." });
    }
    let event: Event;
    try {
      event = JSON.parse(text) as Event;
    } catch {
      return json(400, { status: "error", message: "The body must be JSON." });
    }
    line.type = event.type;
    const source = event.type ? FAILURES[event.type] : undefined;
    if (!source) {
      line.outcome = "ignored";
      return json(200, { status: "ok", handled: false });
    }
    const tags = tagsOf(event);
    const to = Array.isArray(event.data?.to) ? event.data?.to[0] : event.data?.to;
    const details = event.data?.bounce ?? event.data?.suppressed ?? event.data?.failed;
    const contentRefused = source === "bounced" && CONTENT_BOUNCES.has(event.data?.bounce?.subType ?? "");
    const reason = maskAddresses(
      `${contentRefused ? CONTENT_REFUSED : ""}${event.type}: ${[details && "message" in details ? details.message : undefined, details && "reason" in details ? details.reason : undefined, details && "type" in details ? details.type : undefined, event.data?.bounce?.subType].filter(Boolean).join("; ") || "reported by Resend"}`,
    );
    const enquiryId = /^[0-9a-f-]{36}$/i.test(tags.enquiry ?? "") ? tags.enquiry : undefined;
    const retryLater = () => json(503, { status: "error", message: "Could not record the event; Resend will send it again." });
    if (!store) return retryLater();
    try {
      const once = await store.recordReportedFailureOnce(
        // Signed with the id: Svix's own, the same on each retry of one event.
        request.headers.get("svix-id")!,
        {
          providerId: event.data?.email_id,
          enquiryId,
          kind: tags.kind === "studio" || tags.kind === "confirmation" ? (tags.kind as DeliveryKind) : undefined,
          address: to && to.includes("@") && !contentRefused ? to.trim() : undefined,
          source,
          reason,
        },
        WEBHOOK_EVENT_KEEP_SECONDS,
      );
      if (once.duplicate) {
        line.outcome = "duplicate";
        return json(200, { status: "ok", handled: false, duplicate: true });
      }
      const { kind } = once;
      // A bounce of the studio's own mail means STUDIO_INBOX is wrong: that is the owner's to fix now.
      // Its content refused is what a visitor wrote: a warning about that enquiry.
      Object.assign(line, {
        outcome: "recorded",
        kind: kind ?? "unknown",
        enquiry: enquiryId,
        level: kind === "studio" && !contentRefused ? "error" : "warn",
        ...(contentRefused ? { cause: "content" } : {}),
      });
      return json(200, { status: "ok", handled: Boolean(kind) });
    } catch (error) {
      line.error = errorText(error);
      return retryLater();
    }
  };
}
