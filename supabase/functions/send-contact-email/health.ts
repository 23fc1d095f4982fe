/**
 * GET /send-contact-email/health. To anyone: 200 {status:"ok"} or 503 {status:"error"}, nothing else
 * (kept for 10 s, so a flood of health checks costs the database one query per isolate and 10 s).
 * With the owner's secret (x-redelivery-secret, REDELIVERY_SECRET): the details an owner needs
 * (`npm run verify` reads them): configuration problems, the database, the mail transport, the last
 * redelivery run and the schedule, the counts of dead, waiting and held deliveries, the relay (whether
 * a relay secret is set, whether the one sent with this request is recognised, and the wrong secrets
 * seen), and which address headers arrived on this very request, each entry as a short hash
 * (docs/decisions/014, 023). A wrong owner's secret is refused by the handler (wrong-secrets.ts).
 */
import type { ConfigProblem } from "../_shared/config-checks.ts";
import { addressHeaderReport, platformAddress } from "./client-address.ts";
import type { Config } from "./config.ts";
import { json } from "./http.ts";
import { errorText } from "./log.ts";
import type { Store } from "./store.ts";
import { REDELIVERY_SECRET_HEADER, verdictOf, type WrongSecrets } from "./wrong-secrets.ts";

export { REDELIVERY_SECRET_HEADER };
const CACHE_MS = 10_000;

/**
 * PostgreSQL's codes for a statement that ran past its time limit (statement_timeout, query_canceled) or
 * waited past lock_timeout (lock_not_available): the database answered, too slowly. Not unreachable.
 */
const TIMED_OUT = new Set(["57014", "55P03"]);
const timedOut = (error: unknown) => TIMED_OUT.has((error as { code?: unknown } | null)?.code as string);

type Deps = {
  config: Config;
  problems: readonly ConfigProblem[];
  /** Deliverability warnings: listed to the owner, never a reason for "error". */
  warnings?: readonly ConfigProblem[];
  store: Store | undefined;
  /** Whether, in production, an enquiry has come without the configured client-address header. */
  clientHeaderMissing: () => boolean;
  /** Wrong secrets this instance has seen (wrong-secrets.ts), for the owner. */
  wrongSecrets: WrongSecrets["report"];
  now: () => number;
};

export function createHealth({ config, problems, warnings = [], store, clientHeaderMissing, wrongSecrets, now }: Deps) {
  let cached: { at: number; ok: boolean } | undefined;

  async function database() {
    if (!store) return { reachable: false, error: "no database URL" } as const;
    const started = now();
    try {
      const [counts, state] = await Promise.all([store.deliveryCounts(), store.health(config.studioInbox)]);
      return { reachable: true, ms: now() - started, counts, ...state } as const;
    } catch (error) {
      if (timedOut(error)) return { reachable: true, timedOut: true, ms: now() - started, error: errorText(error) } as const;
      return { reachable: false, error: errorText(error) } as const;
    }
  }

  const healthy = (db: Awaited<ReturnType<typeof database>>) =>
    problems.length === 0 &&
    db.reachable &&
    !("timedOut" in db) &&
    config.mail.transport !== "none" &&
    !("inboxUndeliverable" in db && db.inboxUndeliverable) &&
    !("accountRefused" in db && db.accountRefused) &&
    !("studioMailDead" in db && db.studioMailDead) &&
    !clientHeaderMissing();

  /** `owner`: the request carries the owner's secret (the handler checked it). */
  return async function health(request: Request, owner: boolean): Promise<Response> {
    if (owner) return json(...(await details(request)));
    if (!cached || now() - cached.at > CACHE_MS) cached = { at: now(), ok: healthy(await database()) };
    return json(cached.ok ? 200 : 503, { status: cached.ok ? "ok" : "error" });
  };

  async function details(request: Request): Promise<[number, unknown]> {
    const db = await database();
    const ok = healthy(db);
    const lastRunAt = "lastRunAt" in db ? db.lastRunAt : null;
    return [
      ok ? 200 : 503,
      {
        status: ok ? "ok" : "error",
        production: config.production,
        problems,
        warnings,
        // `timedOut`: the database answered, but a statement or lock wait ran past its limit.
        database: !db.reachable
          ? { reachable: false, connection: config.databaseConnection, error: db.error }
          : "timedOut" in db
            ? { reachable: true, timedOut: true, ms: db.ms, connection: config.databaseConnection, error: db.error }
            : { reachable: true, timedOut: false, ms: db.ms, connection: config.databaseConnection, poolMax: config.dbPoolMax },
        mail: {
          transport: config.mail.transport,
          configured: config.mail.transport !== "none",
          // For `npm run verify`: the sending domain's DNS, and the sender against the inbox.
          from: config.mailFrom,
          studioInbox: config.studioInbox,
          ...(config.mail.transport === "none" ? { reason: config.mail.reason } : {}),
          resendWebhook: config.mail.transport === "resend" ? Boolean(config.mail.webhookSecret) : undefined,
          studioInboxUndeliverable: "inboxUndeliverable" in db ? db.inboxUndeliverable : null,
          // The provider refuses the studio's account (key, domain, sender): mail waits until it is fixed.
          accountRefused: "accountRefused" in db ? db.accountRefused : null,
          // A studio notification given up in the last 24 hours (private.undelivered_mail has it).
          studioMailDeadLastDay: "studioMailDead" in db ? db.studioMailDead : null,
        },
        redelivery: {
          lastRunAt: lastRunAt?.toISOString() ?? null,
          secondsSinceLastRun: lastRunAt ? Math.round((now() - lastRunAt.getTime()) / 1000) : null,
          // null: pg_cron is not installed where this database runs (the local one).
          scheduled: "scheduled" in db ? db.scheduled : null,
          // Where pg_cron is missing, the local stack calls /redeliver on a timer (scripts/local-stack/schedule.mjs).
          localSchedule: config.localRedeliveryEverySeconds ? { everySeconds: config.localRedeliveryEverySeconds } : null,
        },
        deliveries: "counts" in db ? db.counts : null,
        relay: {
          configured: Boolean(config.relaySecret),
          // The relay secret sent with this request, if any: how the owner checks the site's value.
          given: { absent: "not-sent", recognised: "recognised", refused: "refused" }[verdictOf(request, "relay", config)],
          // Wrong relay and owner's secrets from anyone: counted, never an alarm (docs/decisions/023).
          wrongSecrets: wrongSecrets(),
        },
        clientAddress: {
          configured: config.clientAddress.header,
          trustedHops: config.clientAddress.trustedHops,
          configuredArrived: platformAddress(request, config.clientAddress) !== null,
          // An enquiry came without it (production): per-sender limits fall back to one shared bucket.
          missingOnEnquiries: clientHeaderMissing(),
          arrived: await addressHeaderReport(request),
        },
      },
    ];
  }
}
