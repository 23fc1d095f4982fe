/** Postgres access for enquiries, deliveries, rate limits and redelivery runs (the schema: supabase/schemas, its history supabase/migrations). */
import postgres from "postgres";
import { columnOf, CONTACT_FIELDS, type ContactMessage } from "../_shared/contact-message.ts";
import type { Limits } from "./config.ts";

export type DeliveryKind = "studio" | "confirmation";

/** What became of one submit_enquiry call (its SQL column is still named `outcome`; the app's one outcome type is FormOutcome). */
export type Submission =
  /**
   * held: stored, but past the global rate its mails wait (a digest for the studio, confirmations paused).
   * claimed: the new enquiry's due mails, already claimed for the caller to send now (submit's `claim`).
   */
  | { outcome: "stored" | "held"; enquiryId: string; claimed: ClaimedDelivery[] }
  | { outcome: "duplicate"; enquiryId: string }
  /** The same idempotency key with another message: the first stays. */
  | { outcome: "conflict"; enquiryId: string }
  /** Over the sender's own limit (or their held budget), or a global budget is spent ("busy"). */
  | { outcome: "rate-limited" | "busy"; retryAfterSeconds: number };

export type ClaimedDelivery = { enquiryId: string; kind: DeliveryKind; message: ContactMessage };
export type HeldEnquiry = { enquiryId: string; message: ContactMessage; createdAt: Date };

/** How long a failed delivery waits: `baseSeconds` × 2^(attempts-1), at most `maxSeconds`. */
export type Backoff = { baseSeconds: number; maxSeconds: number };

export type DeliveryCounts = { dead: number; waiting: number; held: number };

/** A failure the provider reported after accepting a mail (its webhook). */
export type ReportedFailure = {
  providerId?: string;
  enquiryId?: string;
  kind?: DeliveryKind;
  /** The recipient the provider reported, exactly (a bounce is about that address: docs/decisions/031). */
  address?: string;
  source: "bounced" | "complained" | "failed" | "suppressed";
  reason: string;
};

export type Store = ReturnType<typeof createStore>;

/**
 * How a delivery's error text begins when the provider refused the mail's content, not its address (a
 * bounce of subtype ContentRejected: what the visitor wrote, on the studio's notification). Such a death
 * says nothing of the studio's inbox, so /health does not count it (docs/decisions/036).
 */
export const CONTENT_REFUSED = "content refused, not the address: ";

/**
 * The longest any statement may run on a direct connection, so a stalled one ends in an error the
 * function answers (503 with Retry-After) instead of a visitor waiting without end. Lock waits are
 * bounded sooner inside submit_enquiry (its lock_timeout), on every kind of connection.
 */
export const STATEMENT_TIMEOUT_MS = 10_000;

/** How long a claimed delivery (or digest) is reserved before another caller may take it. */
const CLAIM_SECONDS = 120;

/**
 * An enquiry as SQL takes and returns it (docs/decisions/022): its row as JSON, keyed by column. A
 * field of the contract is its column (`columnOf`), so a new field passes through without a change here.
 */
type EnquiryRow = { id: string; created_at: string } & Record<string, unknown>;
const rowOf = (message: ContactMessage) => Object.fromEntries(CONTACT_FIELDS.map((f) => [columnOf(f), message[f]]));
/** The message as stored: a column still null (added after its row was written) reads as a blank field. */
const messageOf = (row: EnquiryRow): ContactMessage =>
  Object.fromEntries(CONTACT_FIELDS.map((f) => [f, (row[columnOf(f)] as string | null) ?? ""])) as ContactMessage;
/** A delivery with what its mail is built from: the stored row, for the first attempt and every retry alike. */
const deliveryOf = (kind: DeliveryKind, row: EnquiryRow): ClaimedDelivery => ({
  enquiryId: row.id,
  kind,
  message: messageOf(row),
});

/**
 * `prepare`: name and keep each statement on its connection. Only on a direct connection: Supavisor in
 * transaction mode (DB_POOLER_URL) does not support prepared statements. Without it postgres.js makes
 * two round trips for every statement with parameters (it asks the server for their types first).
 */
export function createStore(databaseUrl: string, options: { max?: number; connectTimeoutSeconds?: number; prepare?: boolean } = {}) {
  const sql = postgres(databaseUrl, {
    // One connection per isolate, as Supabase advises for functions (config.ts, DB_POOL_MAX).
    max: options.max ?? 1,
    connect_timeout: options.connectTimeoutSeconds ?? 5,
    idle_timeout: 30,
    prepare: options.prepare ?? false,
    // A startup parameter: only on a direct connection (Supavisor, the transaction pooler, is not
    // documented to pass them on); through the pooler submit_enquiry's lock_timeout bounds the waits.
    ...(options.prepare ? { connection: { statement_timeout: STATEMENT_TIMEOUT_MS } } : {}),
    onnotice: () => {},
  });

  const sentRecords = groupedWrites<{ enquiryId: string; kind: DeliveryKind; providerId: string | null }>(async (sent) => {
    await sql`with sent as (
        update public.contact_deliveries d
        set status = 'sent', sent_at = now(), locked_until = null, last_error = null, provider_id = s.provider_id
        from unnest(${sent.map((s) => s.enquiryId)}::uuid[], ${sent.map((s) => s.kind)}::text[], ${sent.map((s) => s.providerId)}::text[])
          as s (enquiry_id, kind, provider_id)
        where d.enquiry_id = s.enquiry_id and d.kind = s.kind
        returning 1)
      delete from private.mail_account_refusal where exists (select from sent)`;
  });

  return {
    /**
     * `clientHash` "": no trustworthy client address, so no per-sender limit applies. `claim`: the caller
     * sends the new enquiry's due mails at once, so they are stored claimed for it (one round trip, not two).
     * `quick`: filled faster than a person does (enquiry.ts): stored, its confirmation only the day's first to its address.
     */
    async submit(
      key: string,
      message: ContactMessage,
      mailbox: string,
      clientHash: string,
      limits: Limits,
      { claim, quick = false }: { claim: boolean; quick?: boolean },
    ): Promise<Submission> {
      const [row] = await sql<
        {
          outcome: string;
          enquiry_id: string | null;
          retry_after: number | null;
          enquiry: EnquiryRow | null;
          claimed: DeliveryKind[] | null;
        }[]
      >`
        select * from private.submit_enquiry(
          ${key}::uuid, ${sql.json(rowOf(message))}, ${mailbox}, ${clientHash},
          ${limits.perClient}, make_interval(secs => ${limits.clientWindowSeconds}),
          ${limits.global}, make_interval(secs => ${limits.globalWindowSeconds}),
          ${limits.enquiriesPerDay}, ${limits.heldMax}, ${limits.confirmationsPerSenderPerDay}, ${quick},
          ${claim ? sql`make_interval(secs => ${CLAIM_SECONDS})` : null})`;
      if (!row) throw new Error("submit_enquiry returned no row");
      if (row.outcome === "rate-limited" || row.outcome === "busy")
        return { outcome: row.outcome, retryAfterSeconds: row.retry_after ?? 60 };
      const enquiryId = row.enquiry_id!;
      if (row.outcome === "stored" || row.outcome === "held") {
        const claimed = (row.claimed ?? []).map((kind) => deliveryOf(kind, row.enquiry!));
        return { outcome: row.outcome, enquiryId, claimed };
      }
      return { outcome: row.outcome as "duplicate" | "conflict", enquiryId };
    },

    /** Claims up to `limit` due deliveries to send (of one enquiry, or of all when `enquiryId` is null). */
    async claim(enquiryId: string | null, limit: number, maxAttempts: number): Promise<ClaimedDelivery[]> {
      const rows = await sql<{ kind: DeliveryKind; enquiry: EnquiryRow }[]>`
        select kind, enquiry from private.claim_deliveries(${enquiryId}::uuid, ${limit}, ${maxAttempts}, make_interval(secs => ${CLAIM_SECONDS}))`;
      return rows.map((r) => deliveryOf(r.kind, r.enquiry));
    },

    /**
     * Records a sent mail; a mail sent means the provider takes the studio's account again. Resolves
     * once recorded: mails sent while one record is being written are recorded together, in one
     * statement, after it (under load, a round trip for many mails instead of one each).
     */
    markSent(enquiryId: string, kind: DeliveryKind, providerId: string | undefined): Promise<void> {
      return sentRecords.add({ enquiryId, kind, providerId: providerId ?? null });
    },

    /** The provider refused the studio's account: the delivery (none for a digest) waits, its attempt given back. */
    async recordAccountRefusal(enquiryId: string | null, kind: DeliveryKind | null, reason: string) {
      await sql`select private.record_account_refusal(${enquiryId}::uuid, ${kind}, ${reason})`;
    },

    /** Records a failed attempt; returns "dead" when it will not be tried again, else "pending". */
    async recordFailure(
      enquiryId: string,
      kind: DeliveryKind,
      failure: { error: string; permanent: boolean },
      maxAttempts: number,
      backoff: Backoff,
    ): Promise<"pending" | "dead"> {
      const [row] = await sql<{ status: "pending" | "dead" }[]>`select private.record_delivery_failure(
          ${enquiryId}::uuid, ${kind}, ${failure.error}, ${failure.permanent}, ${maxAttempts},
          make_interval(secs => ${backoff.baseSeconds}), make_interval(secs => ${backoff.maxSeconds})) as status`;
      return row?.status ?? "pending";
    },

    /** An address the provider refused for good: it gets no confirmation again. `studio`: the studio's own inbox. */
    async recordRefusedAddress(address: string, studio: boolean, reason: string) {
      await sql`select private.record_refused_address(${address}, ${studio}, ${reason})`;
    },

    /** Claims up to `limit` held studio mails, oldest first, to go out as one digest. */
    async claimDigest(limit: number): Promise<HeldEnquiry[]> {
      const rows = await sql<{ enquiry: EnquiryRow }[]>`
        select enquiry from private.claim_digest(${limit}, make_interval(secs => ${CLAIM_SECONDS}))`;
      return rows.map(({ enquiry }) => ({ enquiryId: enquiry.id, createdAt: new Date(enquiry.created_at), message: messageOf(enquiry) }));
    },

    /** After the digest: sent, or back to held (unclaimed) for the next run. */
    async finishDigest(enquiryIds: string[], sent: boolean) {
      await sql`update public.contact_deliveries
        set status = ${sent ? "sent" : "held"}, sent_at = ${sent ? sql`now()` : null}, locked_until = null
        where kind = 'studio' and enquiry_id = any(${enquiryIds}::uuid[])`;
      if (sent) await sql`delete from private.mail_account_refusal`;
    },

    /** Paused confirmations go out again when the global rate is under its limit, however old; returns how many. */
    async releasePausedConfirmations(limits: Limits): Promise<number> {
      const [row] = await sql<{ released: number }[]>`select private.release_paused_confirmations(
          ${limits.global}, make_interval(secs => ${limits.globalWindowSeconds})) as released`;
      return row?.released ?? 0;
    },

    /** Deliveries whose claim expired after their last attempt become dead; returns how many. */
    async sweepExpiredClaims(maxAttempts: number): Promise<number> {
      const [row] = await sql<{ dead: number }[]>`select private.sweep_expired_claims(${maxAttempts}) as dead`;
      return row?.dead ?? 0;
    },

    /** The redelivery lease: one run at a time, across isolates and instances. */
    async takeLease(holder: string, seconds: number): Promise<boolean> {
      const [row] = await sql<{ taken: boolean | null }[]>`select private.take_redelivery_lease(${holder}::uuid, ${seconds}) as taken`;
      return row?.taken === true;
    },

    async finishRun(holder: string, report: unknown) {
      await sql`select private.finish_redelivery(${holder}::uuid, ${sql.json(report as postgres.JSONValue)})`;
    },

    /** Deletes what is past its retention period, a bounded batch at a time. */
    async applyRetention(retention: { days: number; errorTextDays: number }, batch = 500): Promise<Record<string, number>> {
      const [row] = await sql<{ removed: Record<string, number> }[]>`select private.apply_retention(
          make_interval(days => ${retention.days}), make_interval(days => ${retention.errorTextDays}), ${batch}) as removed`;
      return row?.removed ?? {};
    },

    /** Deliveries given up (private.undelivered_mail), waiting for a retry, and held for the digest. */
    async deliveryCounts(): Promise<DeliveryCounts> {
      const [row] = await sql<DeliveryCounts[]>`select
          count(*) filter (where status = 'dead')::int as dead,
          count(*) filter (where status in ('pending', 'sending'))::int as waiting,
          count(*) filter (where status = 'held')::int as held
        from public.contact_deliveries`;
      return row ?? { dead: 0, waiting: 0, held: 0 };
    },

    /**
     * What /health reports of the database: reachable, the last redelivery run, the schedule. The inbox
     * is undeliverable only by the studio's own mail to it, never by a visitor's address (docs/decisions/031).
     */
    async health(studioInbox: string) {
      const [row] = await sql<
        {
          last_run_at: Date | null;
          scheduled: boolean | null;
          inbox_undeliverable: boolean;
          account_refused_at: Date | null;
          account_refusal: string | null;
          studio_mail_dead: boolean;
        }[]
      >`select
          (select last_run_at from private.redelivery_state) as last_run_at,
          private.redelivery_scheduled() as scheduled,
          exists (select from private.undeliverable_addresses where address = ${studioInbox} and studio) as inbox_undeliverable,
          (select refused_at from private.mail_account_refusal) as account_refused_at,
          (select reason from private.mail_account_refusal) as account_refusal,
          exists (select from public.contact_deliveries
            where kind = 'studio' and status = 'dead' and dead_at > now() - interval '24 hours'
              and not starts_with(coalesce(last_error, ''), ${CONTENT_REFUSED})) as studio_mail_dead`;
      return {
        lastRunAt: row?.last_run_at ?? null,
        scheduled: row?.scheduled ?? null,
        inboxUndeliverable: row?.inbox_undeliverable ?? false,
        /** The provider's latest refusal of the studio's account, until a mail is sent again. */
        accountRefused: row?.account_refused_at ? { at: row.account_refused_at.toISOString(), reason: row.account_refusal ?? "" } : null,
        /** A studio notification given up in the last 24 hours, not for its content: an enquiry the studio may not have seen. */
        studioMailDead: row?.studio_mail_dead ?? false,
      };
    },

    async close() {
      await sql.end({ timeout: 5 });
    },

    /**
     * A failure the provider reported later (private.record_reported_failure), once per webhook event: `eventId` (Resend's svix-id) is recorded in the
     * same statement, so a repeat of the event changes nothing ("duplicate"), and a failure leaves it
     * unrecorded for the provider to send again. Ids older than `keepSeconds` are pruned, a bounded
     * batch at a time, as new ones arrive (private.processed_webhook_events).
     */
    async recordReportedFailureOnce(
      eventId: string,
      failure: ReportedFailure,
      keepSeconds: number,
    ): Promise<{ duplicate: true } | { duplicate: false; kind: DeliveryKind | undefined }> {
      const [row] = await sql<{ fresh: boolean; kind: DeliveryKind | null }[]>`
        with fresh as (
          insert into private.processed_webhook_events (event_id) values (${eventId})
          on conflict do nothing returning event_id
        ), pruned as (
          delete from private.processed_webhook_events where event_id in (
            select event_id from private.processed_webhook_events
            where processed_at < now() - make_interval(secs => ${keepSeconds}) limit 100)
        )
        select exists (select from fresh) as fresh,
          case when exists (select from fresh) then private.record_reported_failure(
            ${failure.providerId ?? null}, ${failure.enquiryId ?? null}::uuid, ${failure.kind ?? null}, ${failure.address ?? null},
            ${failure.source}, ${failure.reason}) end as kind`;
      return row?.fresh ? { duplicate: false, kind: row.kind ?? undefined } : { duplicate: true };
    },
  };
}

/**
 * Writes that may share one statement: while a write runs, the items added meanwhile wait and go
 * together in the next one. Each item's promise settles with the write that carried it.
 */
function groupedWrites<T>(write: (items: T[]) => Promise<void>) {
  let waiting: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let running = false;
  async function drain() {
    running = true;
    while (waiting.length > 0) {
      const group = waiting;
      waiting = [];
      try {
        await write(group.map((w) => w.item));
        for (const w of group) w.resolve();
      } catch (error) {
        for (const w of group) w.reject(error);
      }
    }
    running = false;
  }
  return {
    add(item: T): Promise<void> {
      const done = new Promise<void>((resolve, reject) => waiting.push({ item, resolve, reject }));
      if (!running) void drain();
      return done;
    },
  };
}
