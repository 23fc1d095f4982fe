/**
 * Sending the two mails of an enquiry, and redelivering what failed. Store first, mail after
 * (docs/decisions/003): every send is claimed in Postgres, and its outcome recorded there:
 * - sent: recorded, retried if recording fails, so no mail goes twice after a successful send;
 * - temporary failure (provider down, slow, 429/5xx): waits for its own next-attempt time (backoff);
 * - permanent refusal (no such recipient): dead at once, with its reason, logged at error level.
 * Redelivery stops at the first temporary failure (the provider is struggling: do not hammer it),
 * paces its sends under the provider's rate limit, and stops before its time budget. It first sends
 * the studio one digest of what was held during a flood, and releases paused confirmations once the
 * flood is over (docs/decisions/013).
 */
import type { Config } from "./config.ts";
import { studioDigest, studioNotification, visitorConfirmation } from "./emails.ts";
import { errorText, type Log } from "./log.ts";
import { MailError, type Mailer } from "./mailer.ts";
import type { ClaimedDelivery, DeliveryKind, Store } from "./store.ts";

/** The most enquiries one digest lists; more wait for the next run. */
const DIGEST_MAX = 200;

export type SendResult = "sent" | "retry-later" | "dead";

export type RedeliveryReport = {
  status: "ok";
  /** Enquiries held during a flood that went to the studio in this call's digest (one mail). */
  digested: number;
  /** Paused confirmations released because the global rate is back under its limit. */
  released: number;
  sent: number;
  /** Temporary failures in this call (at most one: the call stops there). */
  failed: number;
  /** Deliveries that died in this call. */
  dead: number;
  /** Why the call stopped: nothing due, a temporary failure, or the time budget. */
  stopped: "nothing-due" | "provider-failure" | "time-budget";
  /** Totals after this call: deliveries given up (see private.undelivered_mail) and waiting for a retry. */
  undeliveredTotal: number;
  waitingTotal: number;
};

type Deps = {
  config: Config;
  store: Store;
  mailer: Mailer;
  log: Log;
  now: () => number;
  sleep?: (ms: number) => Promise<void>;
};

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Waits before each retry of recording "sent": the database may be restarting. */
const RECORD_SENT_RETRIES_MS = [100, 500, 2000];

export function createDelivery({ config, store, mailer, log, now, sleep = delay }: Deps) {
  function emailFor({ enquiryId, kind, message }: ClaimedDelivery) {
    return kind === "studio"
      ? studioNotification(message, { studioInbox: config.studioInbox, enquiryId })
      : visitorConfirmation(message, { studioName: config.studioName, studioInbox: config.studioInbox });
  }

  async function recordSent(enquiryId: string, kind: DeliveryKind) {
    for (let attempt = 0; ; attempt++) {
      try {
        await store.markSent(enquiryId, kind);
        return;
      } catch (error) {
        const last = attempt >= RECORD_SENT_RETRIES_MS.length;
        log({ level: last ? "error" : "warn", event: "delivery-sent-unrecorded", enquiry: enquiryId, kind, attempt: attempt + 1, error: errorText(error) });
        if (last) return; // the claim expires in 2 minutes; the mail may then go again, never zero times
        await sleep(RECORD_SENT_RETRIES_MS[attempt]!);
      }
    }
  }

  /** Sends one claimed delivery and records the outcome. */
  async function send(delivery: ClaimedDelivery): Promise<SendResult> {
    const { enquiryId, kind } = delivery;
    try {
      await mailer.send(emailFor(delivery), `${enquiryId}:${kind}`);
    } catch (error) {
      const failure = { error: errorText(error), permanent: error instanceof MailError && error.permanent };
      let status: "pending" | "dead" = "pending";
      try {
        status = await store.recordFailure(enquiryId, kind, failure, config.maxAttempts, config.retry);
      } catch (recordError) {
        // The claim expires and the delivery is tried again: a mail late, never lost.
        log({ level: "error", event: "delivery-failure-unrecorded", enquiry: enquiryId, kind, error: errorText(recordError) });
      }
      if (status === "dead") {
        log({ level: "error", event: "delivery-dead", enquiry: enquiryId, kind, permanent: failure.permanent, reason: failure.error });
        return "dead";
      }
      log({ level: "warn", event: "delivery-retry-later", enquiry: enquiryId, kind, reason: failure.error });
      return "retry-later";
    }
    await recordSent(enquiryId, kind);
    return "sent";
  }

  return {
    /** Right after an enquiry is stored: its two mails, side by side. */
    async deliverEnquiry(enquiryId: string): Promise<SendResult[]> {
      const claimed = await store.claim(enquiryId, 2, config.maxAttempts);
      return await Promise.all(claimed.map(send));
    },

    /** The scheduler's call: what is due, one at a time, paced, until done, a failure or the budget. */
    async redeliver(): Promise<RedeliveryReport> {
      const deadline = now() + config.redeliveryBudgetMs;
      const interval = 1000 / config.mailRatePerSecond;
      let sent = 0;
      let failed = 0;
      let dead = 0;
      let digested = 0;
      let stopped: RedeliveryReport["stopped"] = "nothing-due";
      let lastSend = -Infinity;
      let released = 0;
      const report = async (): Promise<RedeliveryReport> => {
        const totals = await store.deliveryCounts();
        return { status: "ok", digested, released, sent, failed, dead, stopped, undeliveredTotal: totals.dead, waitingTotal: totals.waiting };
      };

      const held = await store.claimDigest(DIGEST_MAX);
      if (held.length > 0) {
        const ids = held.map((h) => h.enquiryId);
        lastSend = now();
        try {
          await mailer.send(studioDigest(held, { studioInbox: config.studioInbox }), `digest:${ids[0]}:${ids.length}`);
        } catch (error) {
          await store.finishDigest(ids, false);
          log({ level: "warn", event: "digest-retry-later", enquiries: ids.length, reason: errorText(error) });
          failed = 1;
          stopped = "provider-failure";
          return await report();
        }
        await store.finishDigest(ids, true);
        digested = ids.length;
        log({ level: "warn", event: "digest-sent", enquiries: digested });
      }
      released = await store.releasePausedConfirmations(config.rateLimit);
      if (released > 0) log({ event: "confirmations-released", released });

      for (;;) {
        // Never start a send that could outlast the budget.
        if (now() + interval + config.mailTimeoutMs > deadline) {
          stopped = "time-budget";
          break;
        }
        const wait = lastSend + interval - now();
        if (wait > 0) await sleep(wait);
        const [delivery] = await store.claim(null, 1, config.maxAttempts);
        if (!delivery) break;
        lastSend = now();
        const result = await send(delivery);
        if (result === "sent") sent++;
        else if (result === "dead") dead++;
        else {
          failed++;
          stopped = "provider-failure";
          break;
        }
      }
      return await report();
    },
  };
}
