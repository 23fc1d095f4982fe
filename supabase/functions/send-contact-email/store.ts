/** Postgres access for enquiries, deliveries and rate limits (schema: supabase/migrations). */
import postgres from "postgres";
import type { ContactMessage } from "../_shared/contact-message.ts";

export type DeliveryKind = "studio" | "confirmation";

export type SubmitOutcome =
  /** held: stored, but past the global rate its mails wait (a digest for the studio, confirmations paused). */
  | { outcome: "stored" | "held" | "duplicate"; enquiryId: string }
  | { outcome: "rate-limited"; retryAfterSeconds: number };

export type ClaimedDelivery = { enquiryId: string; kind: DeliveryKind; message: ContactMessage };
export type HeldEnquiry = { enquiryId: string; message: ContactMessage; createdAt: Date };

export type Limits = { perClient: number; clientWindowSeconds: number; global: number; globalWindowSeconds: number };

/** How long a failed delivery waits: `baseSeconds` × 2^(attempts-1), at most `maxSeconds`. */
export type Backoff = { baseSeconds: number; maxSeconds: number };

export type DeliveryCounts = { dead: number; waiting: number };

export type Store = {
  /** `clientHash` null: no trustworthy client address, so only the global limit applies. */
  submit(key: string, message: ContactMessage, clientHash: string | null, limits: Limits): Promise<SubmitOutcome>;
  /** Claims up to `limit` due deliveries to send (of one enquiry, or of all when `enquiryId` is null). */
  claim(enquiryId: string | null, limit: number, maxAttempts: number): Promise<ClaimedDelivery[]>;
  markSent(enquiryId: string, kind: DeliveryKind): Promise<void>;
  /** Records a failed attempt; returns "dead" when it will not be tried again, else "pending". */
  recordFailure(
    enquiryId: string,
    kind: DeliveryKind,
    failure: { error: string; permanent: boolean },
    maxAttempts: number,
    backoff: Backoff,
  ): Promise<"pending" | "dead">;
  /** Claims up to `limit` held studio mails, to go out as one digest. */
  claimDigest(limit: number): Promise<HeldEnquiry[]>;
  /** After the digest: sent, or back to held for the next run. */
  finishDigest(enquiryIds: string[], sent: boolean): Promise<void>;
  /** Paused confirmations go out again when the global rate is under its limit; returns how many. */
  releasePausedConfirmations(limits: Limits): Promise<number>;
  /** Deliveries that will not be tried again, and those waiting for a later attempt. */
  deliveryCounts(): Promise<DeliveryCounts>;
  close(): Promise<void>;
};

/** How long a claimed delivery is reserved before another caller may retry it. */
const CLAIM_SECONDS = 120;

export function createStore(databaseUrl: string, options: { max?: number; connectTimeoutSeconds?: number } = {}): Store {
  const sql = postgres(databaseUrl, {
    // Small on purpose: every isolate of the function has its own pool (see config.ts, DB_POOL_MAX).
    max: options.max ?? 3,
    connect_timeout: options.connectTimeoutSeconds ?? 5,
    idle_timeout: 30,
    // Supavisor in transaction mode (DB_POOLER_URL) does not support prepared statements.
    prepare: false,
    onnotice: () => {},
  });

  return {
    async submit(key, message, clientHash, limits) {
      const [row] = await sql<{ outcome: string; enquiry_id: string | null; retry_after: number | null }[]>`
        select * from private.submit_enquiry(
          ${key}::uuid, ${message.name}, ${message.email}, ${message.projectTitle}, ${message.projectDetails},
          ${clientHash ?? ""}, ${clientHash === null ? null : limits.perClient}, make_interval(secs => ${limits.clientWindowSeconds}),
          ${limits.global}, make_interval(secs => ${limits.globalWindowSeconds}))`;
      if (!row) throw new Error("submit_enquiry returned no row");
      if (row.outcome === "rate-limited") return { outcome: "rate-limited", retryAfterSeconds: row.retry_after ?? 60 };
      return { outcome: row.outcome as "stored" | "held" | "duplicate", enquiryId: row.enquiry_id! };
    },
    async claim(enquiryId, limit, maxAttempts) {
      const rows = await sql<
        { enquiry_id: string; kind: DeliveryKind; name: string; email: string; project_title: string; project_details: string }[]
      >`select * from private.claim_deliveries(${enquiryId}::uuid, ${limit}, ${maxAttempts}, make_interval(secs => ${CLAIM_SECONDS}))`;
      return rows.map((r) => ({
        enquiryId: r.enquiry_id,
        kind: r.kind,
        message: { name: r.name, email: r.email, projectTitle: r.project_title, projectDetails: r.project_details },
      }));
    },
    async markSent(enquiryId, kind) {
      await sql`update public.contact_deliveries set status = 'sent', sent_at = now(), locked_until = null, last_error = null
        where enquiry_id = ${enquiryId} and kind = ${kind}`;
    },
    async recordFailure(enquiryId, kind, failure, maxAttempts, backoff) {
      const [row] = await sql<{ status: "pending" | "dead" }[]>`select private.record_delivery_failure(
          ${enquiryId}::uuid, ${kind}, ${failure.error}, ${failure.permanent}, ${maxAttempts},
          make_interval(secs => ${backoff.baseSeconds}), make_interval(secs => ${backoff.maxSeconds})) as status`;
      return row?.status ?? "pending";
    },
    async claimDigest(limit) {
      const rows = await sql<
        { enquiry_id: string; name: string; email: string; project_title: string; project_details: string; created_at: Date }[]
      >`select * from private.claim_digest(${limit}, make_interval(secs => ${CLAIM_SECONDS}))`;
      return rows.map((r) => ({
        enquiryId: r.enquiry_id,
        createdAt: r.created_at,
        message: { name: r.name, email: r.email, projectTitle: r.project_title, projectDetails: r.project_details },
      }));
    },
    async finishDigest(enquiryIds, sent) {
      await sql`update public.contact_deliveries
        set status = ${sent ? "sent" : "held"}, sent_at = ${sent ? sql`now()` : null}, locked_until = null
        where kind = 'studio' and enquiry_id = any(${enquiryIds}::uuid[])`;
    },
    async releasePausedConfirmations(limits) {
      const [row] = await sql<{ released: number }[]>`select private.release_paused_confirmations(
          ${limits.global}, make_interval(secs => ${limits.globalWindowSeconds})) as released`;
      return row?.released ?? 0;
    },
    async deliveryCounts() {
      const [row] = await sql<{ dead: number; waiting: number }[]>`select
          count(*) filter (where status = 'dead')::int as dead,
          count(*) filter (where status in ('pending', 'sending'))::int as waiting
        from public.contact_deliveries`;
      return { dead: row?.dead ?? 0, waiting: row?.waiting ?? 0 };
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
