/** Mail transports: Resend's HTTP API in production, SMTP for local and self-hosted use. */
import nodemailer from "nodemailer";
import type { MailConfig } from "./config.ts";
import type { Email } from "./emails.ts";

/** What a mail is about, so a failure the provider reports later (a webhook) finds its delivery. */
export type MailTags = { enquiry: string; kind: "studio" | "confirmation" } | { digest: true };

export type Mailer = {
  /**
   * Sends one mail; `key` makes the provider drop a repeat of the same delivery where it can. Resolves
   * to the provider's id for the message (Resend's), or undefined. Throws MailError.
   */
  send(email: Email, key: string, tags: MailTags): Promise<string | undefined>;
  close(): Promise<void>;
};

/**
 * A failed send. `permanent` means the provider refused this mail for good (an address that does not
 * exist, a message it will never accept): trying again cannot help. Everything else (the provider down,
 * slow, rate-limiting us, or our own credentials wrong) is temporary: the mail waits and is tried again.
 */
export class MailError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "MailError";
  }
}

export function createMailer(config: MailConfig, from: string, timeoutMs: number): Mailer | undefined {
  if (config.transport === "none") return undefined;
  return config.transport === "resend" ? resendMailer(config, from, timeoutMs) : smtpMailer(config, from, timeoutMs);
}

/**
 * Resend: 429, 5xx, 408, 401/403 (our key) and 409 `concurrent_idempotent_requests` (the same key is
 * still being processed) are temporary; any other 4xx is about this mail, 409
 * `invalid_idempotent_request` (the key was used for another mail) included: trying again cannot help.
 */
export function isPermanentHttpStatus(status: number, errorName?: string): boolean {
  if (status === 409) return errorName !== "concurrent_idempotent_requests";
  return status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status);
}

/** SMTP: a 5xx answer to the recipient or the message is final; auth (53x) and 4xx are not. */
export function isPermanentSmtpError(error: { responseCode?: number; command?: string }): boolean {
  const code = error.responseCode ?? 0;
  return code >= 500 && code < 600 && !(code >= 530 && code < 540) && ["RCPT TO", "DATA"].includes(error.command ?? "");
}

function resendMailer(config: Extract<MailConfig, { transport: "resend" }>, from: string, timeoutMs: number): Mailer {
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
            from,
            to: [email.to],
            reply_to: email.replyTo,
            subject: email.subject,
            text: email.text,
            html: email.html,
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
        throw new MailError(`Resend unreachable: ${error instanceof Error ? error.message : error}`, false);
      }
      const body = await response.text().catch(() => "");
      if (!response.ok) {
        const name = (parseJson(body) as { name?: string } | undefined)?.name;
        throw new MailError(`Resend answered ${response.status}: ${body.slice(0, 200)}`, isPermanentHttpStatus(response.status, name));
      }
      return (parseJson(body) as { id?: string } | undefined)?.id;
    },
    async close() {},
  };
}

function smtpMailer(config: Extract<MailConfig, { transport: "smtp" }>, from: string, timeoutMs: number): Mailer {
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    auth: config.user ? { user: config.user, pass: config.pass } : undefined,
    pool: true,
    maxConnections: 5,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(email, key) {
      try {
        const info = await transport.sendMail({
          from,
          to: email.to,
          replyTo: email.replyTo,
          subject: email.subject,
          text: email.text,
          html: email.html,
          headers: { "X-Delivery-Key": key },
        });
        return typeof info.messageId === "string" ? info.messageId : undefined;
      } catch (error) {
        const detail = error as { message?: string; responseCode?: number; command?: string; code?: string };
        throw new MailError(`SMTP ${detail.code ?? "error"}: ${detail.message ?? String(error)}`, isPermanentSmtpError(detail));
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
