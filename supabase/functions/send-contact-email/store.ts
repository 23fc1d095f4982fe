/** Postgres access for enquiries, deliveries and rate limits (schema: supabase/migrations). */
import postgres from "postgres";
import type { ContactMessage } from "../_shared/contact-message.ts";

export type DeliveryKind = "studio" | "confirmation";

export type SubmitOutcome =
  | { outcome: "stored" | "duplicate"; enquiryId: string }
  | { outcome: "rate-limited"; retryAfterSeconds: number };

export type ClaimedDelivery = { enquiryId: string; kind: DeliveryKind; message: ContactMessage };

export type Limits = { perClient: number; clientWindowSeconds: number; global: number; globalWindowSeconds: number };

export type Store = {
  submit(key: string, message: ContactMessage, clientHash: string, limits: Limits): Promise<SubmitOutcome>;
  /** Claims up to `limit` deliveries to send (of one enquiry, or of all when `enquiryId` is null). */
  claim(enquiryId: string | null, limit: number, maxAttempts: number): Promise<ClaimedDelivery[]>;
  markSent(enquiryId: string, kind: DeliveryKind): Promise<void>;
  markFailed(enquiryId: string, kind: DeliveryKind, error: string): Promise<void>;
  close(): Promise<void>;
};

/** How long a claimed delivery is reserved before another caller may retry it. */
const CLAIM_SECONDS = 120;

export function createStore(databaseUrl: string, options: { max?: number; connectTimeoutSeconds?: number } = {}): Store {
  const sql = postgres(databaseUrl, {
    max: options.max ?? 8,
    connect_timeout: options.connectTimeoutSeconds ?? 5,
    idle_timeout: 30,
    // Supabase's transaction pooler does not support prepared statements.
    prepare: false,
    onnotice: () => {},
  });

  return {
    async submit(key, message, clientHash, limits) {
      const [row] = await sql<{ outcome: string; enquiry_id: string | null; retry_after: number | null }[]>`
        select * from private.submit_enquiry(
          ${key}::uuid, ${message.name}, ${message.email}, ${message.projectTitle}, ${message.projectDetails},
          ${clientHash}, ${limits.perClient}, make_interval(secs => ${limits.clientWindowSeconds}),
          ${limits.global}, make_interval(secs => ${limits.globalWindowSeconds}))`;
      if (!row) throw new Error("submit_enquiry returned no row");
      if (row.outcome === "rate-limited") return { outcome: "rate-limited", retryAfterSeconds: row.retry_after ?? 60 };
      return { outcome: row.outcome as "stored" | "duplicate", enquiryId: row.enquiry_id! };
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
    async markFailed(enquiryId, kind, error) {
      await sql`update public.contact_deliveries set status = 'pending', locked_until = null, last_error = ${error.slice(0, 500)}
        where enquiry_id = ${enquiryId} and kind = ${kind}`;
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
