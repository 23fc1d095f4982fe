/** Mail transports: Resend's HTTP API in production, SMTP for local and self-hosted use. */
import nodemailer from "nodemailer";
import type { MailConfig } from "./config.ts";
import type { Email } from "./emails.ts";
import { type NamedAddress, parseNamedAddress } from "./sender.ts";

/** What a mail is about, so a failure the provider reports later (a webhook) finds its delivery. */
export type MailTags = { enquiry: string; kind: "studio" | "confirmation" } | { digest: true };

export type Mailer = {
  /**
   * Sends one mail; `key` makes the provider drop a repeat of the same delivery where it can, and is
   * the mail's Message-ID on every attempt (messageIdOf). Resolves to the provider's id for the message
   * (Resend's; over SMTP the Message-ID), or undefined. Throws MailError.
   */
  send(email: Email, key: string, tags: MailTags): Promise<string | undefined>;
  close(): Promise<void>;
};

/**
 * Whose fault a failed send is, which decides what happens to the mail (delivery.ts):
 * - "temporary": the provider down, slow or rate-limiting us: the mail waits and is tried again;
 * - "mail": the provider will never take this mail (a reused idempotency key, a message it refuses):
 *   dead at once;
 * - "recipient": the recipient's server refused the address: dead at once, and no confirmation goes
 *   there again;
 * - "account": the provider refuses the studio's own account (key, domain, sender, credentials); every
 *   mail would get the same answer: the mail waits without spending an attempt, and /health says so;
 * - "reply-to": the provider refuses the mail's Reply-To, on the studio's notification the address the
 *   visitor typed (one the form accepts and the provider does not): sent again without it
 *   (delivery.ts); nothing about the studio's inbox or account (docs/decisions/036).
 */
export type MailFailure = "temporary" | "mail" | "recipient" | "account" | "reply-to";

export class MailError extends Error {
  constructor(
    message: string,
    readonly failure: MailFailure,
  ) {
    super(message);
    this.name = "MailError";
  }

  /** Trying this mail again cannot help. */
  get permanent(): boolean {
    return this.failure === "mail" || this.failure === "recipient";
  }
}

export function createMailer(config: MailConfig, from: string, timeoutMs: number): Mailer | undefined {
  if (config.transport === "none") return undefined;
  const sender = parseNamedAddress(from);
  return config.transport === "resend" ? resendMailer(config, sender, timeoutMs) : smtpMailer(config, sender, timeoutMs);
}

/** MAIL_FROM's address, with the mail's own display name where it has one (the notification's). */
function senderOf(from: NamedAddress, email: Email): NamedAddress {
  return { name: email.fromName ?? from.name, address: from.address };
}

/**
 * The Message-ID of every attempt of one delivery: its key (`<enquiry>:<kind>`, `digest:<hash>`) on
 * MAIL_FROM's domain, `<3f2a…-….studio@studio.ca>`. A retry after a failure, or a resend after a lost
 * acknowledgement, is then the same message to the reader's mail client, which shows it once
 * (docs/decisions/023). The key's characters outside an RFC 5322 dot-atom (its colon) become dots.
 */
export function messageIdOf(key: string, from: NamedAddress): string {
  const local = key
    .replace(/[^A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]/g, ".")
    .replace(/\.{2,}/g, ".")
    .replace(/^\.|\.$/g, "");
  return `<${local}@${from.address.slice(from.address.lastIndexOf("@") + 1)}>`;
}

/** "Name" <address> for Resend's `from` (the name holds no quote or backslash: sender.ts). */
function formatNamedAddress({ name, address }: NamedAddress): string {
  return name ? `"${name.replace(/["\\]/g, "")}" <${address}>` : address;
}

/**
 * Resend (resend.com/docs/api-reference/errors). It never refuses a recipient when a mail is sent: it
 * accepts, and reports a bounce later by webhook (resend-webhook.ts). So:
 * - 408, 429 (too many requests a second) and 5xx are temporary, as is 409
 *   `concurrent_idempotent_requests`;
 * - 429 `daily_quota_exceeded` or `monthly_quota_exceeded` is the account: nothing goes until the
 *   quota resets or the plan changes, and the owner must hear of it;
 * - 409 `invalid_idempotent_request` (the key was used for another mail) is about this mail;
 * - 401 and 403 (a missing, restricted or invalid key; a domain not verified; a test account) are the
 *   account, as is any 4xx about the sender (`invalid_from_address`, a message naming `from` or the
 *   domain);
 * - a 4xx whose message names `reply_to` refuses the Reply-To (a validation error: Resend names the
 *   field it refuses, as it does for `to`);
 * - any other 4xx is about this mail.
 */
export function resendFailure(status: number, errorName = "", message = ""): MailFailure {
  if (status === 409) return errorName === "concurrent_idempotent_requests" ? "temporary" : "mail";
  if (status === 429 && /quota/i.test(errorName)) return "account";
  if (status === 408 || status === 429 || status >= 500 || status < 400) return "temporary";
  if (status === 401 || status === 403) return "account";
  // Before the sender's test: a refusal of the visitor's Reply-To may name its domain.
  if (/reply_?to/i.test(message)) return "reply-to";
  if (errorName === "invalid_from_address" || /`from`|domain/i.test(message)) return "account";
  return "mail";
}

/**
 * SMTP: a 5xx answer to RCPT TO refuses the recipient; to DATA, the message; to MAIL FROM, or any 53x
 * (authentication), the studio's account. Everything else (4xx, a connection that fails) is temporary.
 */
export function smtpFailure(error: { responseCode?: number; command?: string }): MailFailure {
  const code = error.responseCode ?? 0;
  if (code >= 530 && code < 540) return "account";
  if (code < 500 || code >= 600) return "temporary";
  const command = error.command ?? "";
  if (command === "RCPT TO") return "recipient";
  if (command === "DATA") return "mail";
  if (command === "MAIL FROM" || command.startsWith("AUTH")) return "account";
  return "temporary";
}

function resendMailer(config: Extract<MailConfig, { transport: "resend" }>, from: NamedAddress, timeoutMs: number): Mailer {
  return {
    async send(email, key, tags) {
      let response: Response;
      try {
        response = await fetch(`${config.apiUrl}/emails`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${config.apiKey}`,
            "Content-Type": "application/json",
            // Resend keeps idempotency keys for 24 hours: a retried delivery is not sent twice.
            "Idempotency-Key": key,
          },
          body: JSON.stringify({
            from: formatNamedAddress(senderOf(from, email)),
            to: [email.to],
            reply_to: email.replyTo,
            subject: email.subject,
            text: email.text,
            html: email.html,
            headers: { "Message-ID": messageIdOf(key, from) },
            // Come back in Resend's webhooks, so a later bounce finds its delivery.
            tags:
              "digest" in tags
                ? [{ name: "digest", value: "true" }]
                : [
                    { name: "enquiry", value: tags.enquiry },
                    { name: "kind", value: tags.kind },
                  ],
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        // The network, not Resend's answer: no route, DNS, a refused connection, a timeout. Deno 2.9
        // says only "fetch failed" and puts what happened in the cause.
        const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
        throw new MailError(`Resend unreachable (network): ${error instanceof Error ? error.message : error}${cause}`, "temporary");
      }
      const body = await response.text().catch(() => "");
      if (!response.ok) {
        const { name, message } = (parseJson(body) as { name?: string; message?: string } | undefined) ?? {};
        throw new MailError(`Resend answered ${response.status}: ${body.slice(0, 200)}`, resendFailure(response.status, name, message));
      }
      return (parseJson(body) as { id?: string } | undefined)?.id;
    },
    async close() {},
  };
}

function smtpMailer(config: Extract<MailConfig, { transport: "smtp" }>, from: NamedAddress, timeoutMs: number): Mailer {
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    auth: config.user ? { user: config.user, pass: config.pass } : undefined,
    pool: true,
    maxConnections: 5,
    // A pooled connection is kept for as long as the server keeps it (nodemailer's default closes it
    // after 100 mails, so a steady stream of enquiries reconnects and greets again every 100).
    maxMessages: Infinity,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(email, key) {
      try {
        const info = await transport.sendMail({
          // An address object: nodemailer quotes and encodes the name itself.
          from: senderOf(from, email),
          to: email.to,
          replyTo: email.replyTo,
          subject: email.subject,
          text: email.text,
          html: email.html,
          // Ours, not nodemailer's random one: every attempt of this delivery carries the same.
          messageId: messageIdOf(key, from),
          headers: { "X-Delivery-Key": key },
        });
        return typeof info.messageId === "string" ? info.messageId : undefined;
      } catch (error) {
        const detail = error as { message?: string; responseCode?: number; command?: string; code?: string };
        throw new MailError(`SMTP ${detail.code ?? "error"}: ${detail.message ?? String(error)}`, smtpFailure(detail));
      }
    },
    close() {
      transport.close();
      return Promise.resolve();
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
