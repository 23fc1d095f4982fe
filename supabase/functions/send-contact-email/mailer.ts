/** Mail transports: Resend's HTTP API in production, SMTP for local and self-hosted use. */
import nodemailer from "nodemailer";
import type { MailConfig } from "./config.ts";
import type { Email } from "./emails.ts";

export type Mailer = {
  /** Sends one mail; `key` makes the provider drop a repeat of the same delivery where it can. */
  send(email: Email, key: string): Promise<void>;
  close(): Promise<void>;
};

export function createMailer(config: MailConfig, from: string, timeoutMs: number): Mailer {
  return config.transport === "resend" ? resendMailer(config, from, timeoutMs) : smtpMailer(config, from, timeoutMs);
}

function resendMailer(config: Extract<MailConfig, { transport: "resend" }>, from: string, timeoutMs: number): Mailer {
  return {
    async send(email, key) {
      const response = await fetch(`${config.apiUrl}/emails`, {
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
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        throw new Error(`Resend answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
      }
      await response.body?.cancel();
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
      await transport.sendMail({
        from,
        to: email.to,
        replyTo: email.replyTo,
        subject: email.subject,
        text: email.text,
        html: email.html,
        headers: { "X-Delivery-Key": key },
      });
    },
    close() {
      transport.close();
      return Promise.resolve();
    },
  };
}
