/**
 * Sending the two mails of an enquiry, and redelivering what failed. Store first, mail after
 * (docs/decisions/003): every send is claimed in Postgres, and its outcome recorded there:
 * - sent: recorded with the provider's message id (retried if recording fails: no mail goes twice
 *   after a successful send), so a failure the provider reports later finds it (resend-webhook.ts);
 * - temporary failure (provider down, slow, 429/5xx): waits for its own next-attempt time (backoff);
 * - permanent refusal: dead at once, with its reason; when the recipient's server refused the address,
 *   that exact address is recorded as undeliverable (no confirmation goes there again). A visitor's
 *   confirmation that dies is a warning about that enquiry (a typo is no alarm: docs/decisions/031);
 *   the studio's own notification that dies is logged at error level, unless the provider refused only
 *   the visitor's part: a refused Reply-To (the visitor's address) is sent again at once without it
 *   (docs/decisions/036);
 * - the studio's own account refused (a wrong key, a domain not verified): waits without spending an
 *   attempt, logged at error level and reported by /health until a mail is sent (mailer.ts, MailFailure).
 * A redelivery run (the scheduler's /redeliver, and a run in the background after each new enquiry,
 * so mail is retried even where the scheduler is missing: docs/decisions/014) holds a lease, so one
 * runs at a time. It makes stuck deliveries dead, applies retention, sends the studio one digest of
 * what was held during a flood (oldest first; a failed digest does not stop the rest), releases paused
 * confirmations once the flood is over (however long it lasted: docs/decisions/036), then sends what is due: one at a time, paced under the
 * provider's rate limit, stopping at the first temporary failure and before its time budget ends.
 */
import type { Config } from "./config.ts";
import { sha256 } from "./crypto.ts";
import { studioDigest, studioNotification, visitorConfirmation } from "./emails.ts";
import { errorText, type Log } from "./log.ts";
import { MailError, type Mailer } from "./mailer.ts";
import { notificationSenderName } from "./sender.ts";
import type { ClaimedDelivery, DeliveryKind, HeldEnquiry, Store } from "./store.ts";

/** The most enquiries one digest lists; more wait for the next run. */
const DIGEST_MAX = 200;

export type SendResult = "sent" | "retry-later" | "dead" | "account-refused";

export type RedeliveryReport = {
  status: "ok";
  trigger: "scheduler" | "after-enquiry";
  /** Enquiries held during a flood that went to the studio in this run's digest (one mail). */
  digested: number;
  /** Paused confirmations released because the global rate is back under its limit. */
  released: number;
  sent: number;
  /** Temporary failures in this run (at most one send and one digest: the run stops there). */
  failed: number;
  /** Deliveries that died in this run, those whose claim expired after their last attempt included. */
  dead: number;
  /** Why the run stopped. */
  stopped: "nothing-due" | "provider-failure" | "account-refused" | "time-budget" | "no-mail-transport" | "another-run";
  /** Rows removed by retention in this run. */
  retention: Record<string, number>;
  /** Totals after this run: deliveries given up (private.undelivered_mail), waiting for a retry, held. */
  undeliveredTotal: number;
  waitingTotal: number;
  heldTotal: number;
};

type Deps = {
  config: Config;
  store: Store;
  /** Undefined when no mail transport can work (config.ts): mail then waits, and no attempt is spent. */
  mailer: Mailer | undefined;
  log: Log;
  now: () => number;
  sleep?: (ms: number) => Promise<void>;
};

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Waits before each retry of recording "sent": the database may be restarting. */
const RECORD_SENT_RETRIES_MS = [100, 500, 2000];

/** The mail of one delivery of an enquiry, as it is sent (the mail preview and checks send these too). */
export function emailFor(config: Config, { enquiryId, kind, message }: Pick<ClaimedDelivery, "enquiryId" | "kind" | "message">) {
  return kind === "studio"
    ? {
        ...studioNotification(message, { studioInbox: config.studioInbox, enquiryId }),
        fromName: notificationSenderName(message.name, config.studioName),
      }
    : visitorConfirmation({ to: message.email, studioName: config.studioName, studioInbox: config.studioInbox, enquiryId });
}

/** The studio's digest of enquiries held during a flood, as it is sent. */
export function digestFor(config: Config, held: HeldEnquiry[]) {
  return studioDigest(held, { studioInbox: config.studioInbox });
}

export function createDelivery({ config, store, mailer, log, now, sleep = delay }: Deps) {
  async function recordSent(enquiryId: string, kind: DeliveryKind, providerId: string | undefined) {
    for (let attempt = 0; ; attempt++) {
      try {
        await store.markSent(enquiryId, kind, providerId);
        return;
      } catch (error) {
        const last = attempt >= RECORD_SENT_RETRIES_MS.length;
        log({
          level: last ? "error" : "warn",
          event: "delivery-sent-unrecorded",
          enquiry: enquiryId,
          kind,
          attempt: attempt + 1,
          error: errorText(error),
        });
        if (last) return; // the claim expires in 2 minutes; the mail may then go again, never zero times
        await sleep(RECORD_SENT_RETRIES_MS[attempt]!);
      }
    }
  }

  /** Sends one claimed delivery and records the outcome. */
  async function send(mail: Mailer, delivery: ClaimedDelivery): Promise<SendResult> {
    const { enquiryId, kind } = delivery;
    let providerId: string | undefined;
    try {
      providerId = await sendOrWithoutReplyTo(mail, delivery);
    } catch (error) {
      const refused = error instanceof MailError ? error.failure : "temporary";
      // A Reply-To refused again, or on a confirmation (the studio's own inbox): about this mail.
      const cause = refused === "reply-to" ? "mail" : refused;
      if (cause === "account") {
        await accountRefused(error, { enquiryId, kind });
        return "account-refused";
      }
      const failure = { error: errorText(error), permanent: cause === "mail" || cause === "recipient" };
      let status: "pending" | "dead" = "pending";
      try {
        status = await store.recordFailure(enquiryId, kind, failure, config.maxAttempts, config.retry);
        // The address that refused gets no confirmation again (the studio's own mail is never suppressed).
        if (cause === "recipient")
          await store.recordRefusedAddress(
            kind === "studio" ? config.studioInbox : delivery.message.email,
            kind === "studio",
            failure.error,
          );
      } catch (recordError) {
        // The claim expires and the delivery is tried again: a mail late, never lost.
        log({ level: "error", event: "delivery-failure-unrecorded", enquiry: enquiryId, kind, error: errorText(recordError) });
      }
      if (status === "dead") {
        // The owner's alarm rings for the studio's own mail only: anyone can type an address that fails.
        const level = kind === "studio" ? "error" : "warn";
        log({ level, event: "delivery-dead", enquiry: enquiryId, kind, permanent: failure.permanent, reason: failure.error });
        return "dead";
      }
      log({ level: "warn", event: "delivery-retry-later", enquiry: enquiryId, kind, reason: failure.error });
      return "retry-later";
    }
    await recordSent(enquiryId, kind, providerId);
    return "sent";
  }

  /**
   * The studio's notification whose Reply-To (the address the visitor typed) the provider refuses goes
   * again at once without it: the visitor's address is in its text, and nothing here is about the
   * studio's inbox or account (docs/decisions/036). A warning about that enquiry, never the owner's alarm.
   * Its own key: the mail without Reply-To is another request than the refused one.
   */
  async function sendOrWithoutReplyTo(mail: Mailer, delivery: ClaimedDelivery): Promise<string | undefined> {
    const { enquiryId, kind } = delivery;
    const email = emailFor(config, delivery);
    const key = `${enquiryId}:${kind}`;
    try {
      return await mail.send(email, key, { enquiry: enquiryId, kind });
    } catch (error) {
      if (!(error instanceof MailError && error.failure === "reply-to" && kind === "studio" && email.replyTo)) throw error;
      log({ level: "warn", event: "reply-to-refused", enquiry: enquiryId, kind, reason: errorText(error) });
      return await mail.send({ ...email, replyTo: undefined }, `${key}:without-reply-to`, { enquiry: enquiryId, kind });
    }
  }

  /** The provider refused the studio's account: the mail waits, its attempt given back; /health says so. */
  async function accountRefused(error: unknown, delivery: { enquiryId: string; kind: DeliveryKind } | undefined) {
    const reason = errorText(error);
    log({ level: "error", event: "mail-account-refused", enquiry: delivery?.enquiryId, kind: delivery?.kind, reason });
    try {
      await store.recordAccountRefusal(delivery?.enquiryId ?? null, delivery?.kind ?? null, reason);
    } catch (recordError) {
      // The claim expires and the delivery is tried again.
      log({ level: "error", event: "delivery-failure-unrecorded", enquiry: delivery?.enquiryId, error: errorText(recordError) });
    }
  }

  /** The studio's digest of what was held; "failed" leaves it held for the next run. */
  async function sendDigest(mail: Mailer): Promise<{ digested: number; failed: boolean }> {
    const held = await store.claimDigest(DIGEST_MAX);
    if (held.length === 0) return { digested: 0, failed: false };
    const ids = held.map((h) => h.enquiryId);
    // The same set of enquiries is the same mail: the provider drops a repeat of it.
    const key = `digest:${await sha256([...ids].sort().join(","))}`;
    try {
      await mail.send(digestFor(config, held), key, { digest: true });
    } catch (error) {
      await store.finishDigest(ids, false);
      if (error instanceof MailError && error.failure === "account") await accountRefused(error, undefined);
      else log({ level: "warn", event: "digest-retry-later", enquiries: ids.length, reason: errorText(error) });
      return { digested: 0, failed: true };
    }
    await store.finishDigest(ids, true);
    log({ level: "warn", event: "digest-sent", enquiries: ids.length });
    return { digested: ids.length, failed: false };
  }

  return {
    /** Whether mail can be sent now: without a transport that can work, it waits unclaimed (no attempt spent). */
    canSend: mailer !== undefined,

    /** Right after an enquiry is stored: its mails that submit claimed (store.submit), side by side. */
    async deliverEnquiry(claimed: ClaimedDelivery[]): Promise<SendResult[]> {
      if (!mailer) return [];
      return await Promise.all(claimed.map((delivery) => send(mailer, delivery)));
    },

    /** One redelivery run: see the top of this file. */
    async redeliver(trigger: RedeliveryReport["trigger"]): Promise<RedeliveryReport> {
      const started = now();
      const deadline = started + config.redeliveryBudgetMs;
      const report: RedeliveryReport = {
        status: "ok",
        trigger,
        digested: 0,
        released: 0,
        sent: 0,
        failed: 0,
        dead: 0,
        stopped: "nothing-due",
        retention: {},
        undeliveredTotal: 0,
        waitingTotal: 0,
        heldTotal: 0,
      };
      const holder = crypto.randomUUID();
      // The lease outlasts the budget by a mail's timeout, then expires by itself if this process dies.
      if (!(await store.takeLease(holder, Math.ceil((config.redeliveryBudgetMs + config.mailTimeoutMs) / 1000) + 5))) {
        report.stopped = "another-run";
        return { ...report, ...(await totals()) };
      }
      try {
        report.dead += await store.sweepExpiredClaims(config.maxAttempts);
        report.retention = await store.applyRetention(config.retention);
        if (!mailer) {
          report.stopped = "no-mail-transport";
          return report;
        }
        let lastSend = -Infinity;
        const digest = await sendDigest(mailer);
        report.digested = digest.digested;
        if (digest.digested > 0 || digest.failed) lastSend = now();
        if (digest.failed) report.failed++;
        report.released = await store.releasePausedConfirmations(config.rateLimit);
        if (report.released > 0) log({ event: "confirmations-released", released: report.released });

        const interval = 1000 / config.mailRatePerSecond;
        for (;;) {
          // Never start a send that could outlast the budget.
          if (now() + interval + config.mailTimeoutMs > deadline) {
            report.stopped = "time-budget";
            break;
          }
          const wait = lastSend + interval - now();
          if (wait > 0) await sleep(wait);
          const [delivery] = await store.claim(null, 1, config.maxAttempts);
          if (!delivery) break;
          lastSend = now();
          const result = await send(mailer, delivery);
          if (result === "sent") report.sent++;
          else if (result === "dead") report.dead++;
          else if (result === "account-refused") {
            // Every other mail would get the same answer: stop until the owner fixes the account.
            report.failed++;
            report.stopped = "account-refused";
            break;
          } else {
            report.failed++;
            report.stopped = "provider-failure";
            break;
          }
        }
        return report;
      } finally {
        Object.assign(report, await totals());
        await store.finishRun(holder, { ...report, ms: now() - started });
      }
    },
  };

  async function totals() {
    const counts = await store.deliveryCounts();
    return { undeliveredTotal: counts.dead, waitingTotal: counts.waiting, heldTotal: counts.held };
  }
}
