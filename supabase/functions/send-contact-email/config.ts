/**
 * The function's environment, read and checked once, at cold start. Every variable is listed in
 * README.md and .env.example. A function cannot refuse to start, so nothing here throws: each problem
 * is returned (index.ts logs it at error level, /health reports it) and a safe value is used instead.
 * An enquiry is never refused for a setting the owner can fix later: it is stored whenever the
 * database is reachable, and its mail waits until the mail transport works (docs/decisions/014).
 */
import {
  type ConfigProblem,
  isExampleAddress,
  isLocalOrExampleHost,
  isPlaceholder,
  misspelledVariables,
  publicUrlProblem,
  readSecret,
  secretProblem,
} from "../_shared/config-checks.ts";
import { readShape, wholeNumber } from "../_shared/config-shapes.ts";
import { isDeliverableEmail } from "../_shared/contact-message.ts";
import { senderWarnings } from "./sender.ts";

export type MailConfig =
  | { transport: "resend"; apiKey: string; apiUrl: string; webhookSecret?: string }
  | { transport: "smtp"; host: string; port: number; secure: boolean; user?: string; pass?: string }
  /** No transport can work with this configuration: mail waits (nothing is tried, no attempt is spent). */
  | { transport: "none"; reason: string };

export type Limits = {
  perClient: number;
  clientWindowSeconds: number;
  global: number;
  globalWindowSeconds: number;
  /** Enquiries stored a day, all senders together; past it the answer is 503 "busy". */
  enquiriesPerDay: number;
  /** Enquiries held for the digest at once; past it the answer is 503 "busy". */
  heldMax: number;
  confirmationsPerSenderPerDay: number;
};

export type Config = {
  /** On Supabase's hosted platform (see `isHostedPlatform`): production rules apply. */
  production: boolean;
  /** DB_POOLER_URL (Supavisor, transaction mode: the documented path) when set, else SUPABASE_DB_URL. */
  databaseUrl?: string;
  /** "pooler" or "direct" (the stated fallback), for /health. */
  databaseConnection: "pooler" | "direct";
  /** Connections per function isolate: 1, as Supabase advises for functions. */
  dbPoolMax: number;
  mail: MailConfig;
  mailFrom: string;
  studioInbox: string;
  studioName: string;
  allowedOrigins: string[];
  /** The header the platform sets to the caller's address (never one a client can write), and, for a
   *  list header such as X-Forwarded-For, how many entries the platform appends (the caller's is the
   *  first of those). */
  clientAddress: { header: string; trustedHops: number };
  ipHashSalt: string;
  relaySecret?: string;
  redeliverySecret?: string;
  minFillMs: number;
  rateLimit: Limits;
  maxAttempts: number;
  mailTimeoutMs: number;
  /** Sends per second at most during redelivery, under the provider's own rate limit. */
  mailRatePerSecond: number;
  /** A failed delivery waits retryBaseSeconds × 2^(attempts-1), at most retryMaxSeconds. */
  retry: { baseSeconds: number; maxSeconds: number };
  /** How long one redelivery run may work (the scheduler's HTTP timeout is 60 s: at most 50 s). */
  redeliveryBudgetMs: number;
  /** Set by the local stack, which calls /redeliver itself where pg_cron is not installed: how often. */
  localRedeliveryEverySeconds?: number;
  /** How long a client may take to send the request body (then 408). */
  bodyTimeoutMs: number;
  /** Enquiries, deliveries and undeliverable addresses are kept this long; error texts, errorTextDays. */
  retention: { days: number; errorTextDays: number };
};

/** Deno.env, or a Map in tests: `toObject`/`keys` list what is set, to find misspelled names. */
type Env = { get(key: string): string | undefined; toObject?(): Record<string, string>; keys?(): Iterable<string> };

/**
 * Whether this runs on Supabase's hosted edge runtime, where production rules apply. Supabase documents
 * SB_REGION and DENO_DEPLOYMENT_ID as set "in a hosted environment"; neither the CLI's local serving
 * nor the open-source edge runtime sets them, and plain Deno does not (docs/decisions/014 has the
 * sources). SB_EXECUTION_ID is no marker: the edge runtime sets it locally too.
 */
export function isHostedPlatform(env: Env): boolean {
  return Boolean(env.get("SB_REGION")?.trim() || env.get("DENO_DEPLOYMENT_ID")?.trim());
}

/** Headers that carry a list of addresses, one appended by each proxy. */
export const LIST_HEADERS: ReadonlySet<string> = new Set(["x-forwarded-for", "forwarded"]);

export function loadConfig(source: Env): { config: Config; problems: ConfigProblem[]; warnings: ConfigProblem[] } {
  // Every name looked up is recorded: what is set but never read, and looks like one, is a misspelling.
  const read = new Set<string>();
  const env: Env = { get: (key) => (read.add(key), source.get(key)) };
  const production = isHostedPlatform(env);
  const problems: ConfigProblem[] = [];
  const problem = (variable: string, text: string | undefined) => text && problems.push({ variable, problem: text });
  /** A rule that only a real deployment needs (local runs use local values). */
  const inProduction = (variable: string, text: string | undefined) => production && problem(variable, text);
  const str = (key: string, fallback: string) => env.get(key)?.trim() || fallback;
  const int = (key: string, fallback: number, range: [number, number]) => {
    const raw = env.get(key)?.trim();
    if (!raw) return fallback;
    const read = readShape(wholeNumber("a whole number", range), raw);
    if ("value" in read) return read.value;
    problem(key, `${read.problem}; using ${fallback}`);
    return fallback;
  };
  const required = (key: string, fallback: string) => {
    const value = env.get(key)?.trim();
    if (!value) inProduction(key, "is required");
    else if (isPlaceholder(value)) inProduction(key, "is the placeholder from .env.example");
    return value || fallback;
  };

  // --- the database ----------------------------------------------------------------------------
  const pooler = env.get("DB_POOLER_URL")?.trim();
  const direct = env.get("SUPABASE_DB_URL")?.trim();
  const databaseUrl = pooler || direct;
  if (!databaseUrl)
    problem("SUPABASE_DB_URL", "is required (the platform sets it; locally, npm run stack does): enquiries cannot be stored");
  if (pooler && !/^postgres(ql)?:\/\//.test(pooler))
    problem("DB_POOLER_URL", "must be a postgres:// URL (the transaction pooler's, port 6543)");
  else if (pooler && isPlaceholder(pooler))
    inProduction("DB_POOLER_URL", "is the placeholder from .env.example: copy the transaction pooler's URL");

  // --- mail -------------------------------------------------------------------------------------
  const apiKey = env.get("RESEND_API_KEY")?.trim();
  const transport = str("MAIL_TRANSPORT", apiKey || production ? "resend" : "smtp");
  let mail: MailConfig;
  if (transport === "resend") {
    const webhookSecret = readSecret(env.get("RESEND_WEBHOOK_SECRET"));
    if (!apiKey || isPlaceholder(apiKey) || !apiKey.startsWith("re_")) {
      const reason = apiKey ? "is not a Resend API key (re_…)" : "is required with MAIL_TRANSPORT=resend";
      problem("RESEND_API_KEY", `${reason}: no mail can be sent until it is set`);
      mail = { transport: "none", reason: `RESEND_API_KEY ${reason}` };
    } else {
      mail = { transport, apiKey, apiUrl: str("RESEND_API_URL", "https://api.resend.com").replace(/\/+$/, ""), webhookSecret };
    }
    if (!webhookSecret)
      inProduction(
        "RESEND_WEBHOOK_SECRET",
        "is required: without it, mail Resend accepts and then bounces is never seen (README, Deployment)",
      );
    else if (isPlaceholder(webhookSecret)) inProduction("RESEND_WEBHOOK_SECRET", "is the placeholder from .env.example");
    else if (!/^whsec_[A-Za-z0-9+/=]{16,}$/.test(webhookSecret))
      problem("RESEND_WEBHOOK_SECRET", "must be the webhook's signing secret as Resend shows it (whsec_…)");
  } else if (transport === "smtp") {
    const host = str("SMTP_HOST", "127.0.0.1");
    const port = int("SMTP_PORT", 54325, [1, 65535]);
    const secureSetting = env.get("SMTP_SECURE")?.trim().toLowerCase() || "false";
    if (!["true", "false"].includes(secureSetting)) problem("SMTP_SECURE", `must be true or false, got "${env.get("SMTP_SECURE")}"`);
    mail = {
      transport,
      host,
      port,
      secure: secureSetting === "true",
      user: env.get("SMTP_USER") || undefined,
      pass: env.get("SMTP_PASS") || undefined,
    };
    if (production && isLocalOrExampleHost(host)) {
      mail = { transport: "none", reason: `SMTP_HOST ${host} is not reachable from the hosted platform` };
      problem("MAIL_TRANSPORT", "smtp to this machine cannot work on the hosted platform: use MAIL_TRANSPORT=resend with RESEND_API_KEY");
    } else if (production && (port === 25 || port === 587)) {
      mail = { transport: "none", reason: `SMTP port ${port} is blocked on the hosted platform` };
      problem("SMTP_PORT", `${port} is blocked for outbound mail on the hosted platform: use MAIL_TRANSPORT=resend (or SMTP on port 465)`);
    }
  } else {
    problem("MAIL_TRANSPORT", `must be "resend" or "smtp", got "${transport}": no mail can be sent`);
    mail = { transport: "none", reason: `MAIL_TRANSPORT is "${transport}"` };
  }
  // Never the inbox by default: a mail From and To one address looks forged to filters (sender.ts).
  const mailFrom = required("MAIL_FROM", "Lakeshore Sound Studio <website@studio.example>");
  // Not an address: the provider refuses every mail (Resend 422), which no start-up check would see.
  if (!isDeliverableEmail(/<([^<>]*)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom)) {
    problem("MAIL_FROM", `must be an address or "Name <address>", got "${mailFrom}": no mail can be sent from it`);
    mail = { transport: "none", reason: "MAIL_FROM is not an address" };
  } else if (env.get("MAIL_FROM") && isExampleAddress(mailFrom))
    inProduction("MAIL_FROM", `is at a documentation domain (${mailFrom}): providers refuse to send from it`);
  const studioInbox = required("STUDIO_INBOX", "bookings@studio.example");
  if (!isDeliverableEmail(studioInbox)) {
    problem("STUDIO_INBOX", `must be one e-mail address, got "${studioInbox}": enquiries would never reach the studio`);
    mail = { transport: "none", reason: "STUDIO_INBOX is not an address" };
  } else if (env.get("STUDIO_INBOX") && isExampleAddress(studioInbox))
    inProduction("STUDIO_INBOX", `is at a documentation domain (${studioInbox}): enquiries would never reach the studio`);

  // --- callers ----------------------------------------------------------------------------------
  const allowedOrigins = required("ALLOWED_ORIGINS", "http://localhost:3000")
    .split(",")
    .map((o) => o.trim().replace(/\/+$/, ""))
    .filter(Boolean);
  for (const origin of allowedOrigins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin)
      problem("ALLOWED_ORIGINS", `"${origin}" is not an origin (scheme://host[:port], no path)`);
    else inProduction("ALLOWED_ORIGINS", publicUrlProblem(origin) && `${origin} ${publicUrlProblem(origin)}`);
  }
  const header = str("CLIENT_IP_HEADER", "cf-connecting-ip").toLowerCase();
  if (!/^[a-z0-9-]+$/.test(header)) problem("CLIENT_IP_HEADER", `"${header}" is not a header name`);
  const trustedHops = int("CLIENT_IP_TRUSTED_HOPS", 1, [1, 10]);

  const ipHashSalt = readSecret(env.get("IP_HASH_SALT"));
  inProduction(
    "IP_HASH_SALT",
    secretProblem(ipHashSalt) && `${secretProblem(ipHashSalt)}: stored client hashes could be reversed to addresses`,
  );
  const redeliverySecret = readSecret(env.get("REDELIVERY_SECRET"));
  inProduction(
    "REDELIVERY_SECRET",
    secretProblem(redeliverySecret) && `${secretProblem(redeliverySecret)}: the scheduler cannot call /redeliver`,
  );
  const relaySecret = readSecret(env.get("ENQUIRY_RELAY_SECRET"));
  inProduction("ENQUIRY_RELAY_SECRET", secretProblem(relaySecret) && `${secretProblem(relaySecret)}: set the same value as the site's`);

  const perClient = int("RATE_LIMIT_PER_CLIENT", 5, [1, 100_000]);
  const global = int("RATE_LIMIT_GLOBAL", 100, [1, 1_000_000]);
  const mailTimeoutMs = int("MAIL_TIMEOUT_MS", 10_000, [1_000, 30_000]);
  // A redelivery run starts a send only when a whole mail timeout (and the pause between sends, at
  // most 1 s) fits in what is left of its budget: the default grows with the timeout, and a budget
  // set too short for it is refused, or no retry would ever start.
  const redeliveryBudgetMs = int("REDELIVERY_BUDGET_MS", Math.max(25_000, mailTimeoutMs + 2_000), [mailTimeoutMs + 2_000, 50_000]);
  const config: Config = {
    production,
    databaseUrl,
    databaseConnection: pooler ? "pooler" : "direct",
    // One connection per isolate through the transaction pooler (Supabase's advice); a direct
    // connection is held by the isolate itself, so a few let its concurrent requests overlap.
    dbPoolMax: int("DB_POOL_MAX", pooler ? 1 : 3, [1, 20]),
    mail,
    mailFrom,
    studioInbox,
    studioName: str("STUDIO_NAME", "Lakeshore Sound Studio"),
    allowedOrigins,
    clientAddress: { header, trustedHops: LIST_HEADERS.has(header) ? trustedHops : 1 },
    ipHashSalt: ipHashSalt ?? "local-development-salt",
    relaySecret,
    redeliverySecret,
    minFillMs: int("MIN_FILL_MS", 1500, [0, 60_000]),
    rateLimit: {
      perClient,
      clientWindowSeconds: int("RATE_LIMIT_CLIENT_WINDOW_SECONDS", 600, [1, 86_400]),
      global,
      globalWindowSeconds: int("RATE_LIMIT_GLOBAL_WINDOW_SECONDS", 600, [1, 86_400]),
      enquiriesPerDay: int("ENQUIRIES_PER_DAY_MAX", 1000, [1, 10_000_000]),
      heldMax: int("HELD_ENQUIRIES_MAX", 2000, [1, 10_000_000]),
      confirmationsPerSenderPerDay: int("CONFIRMATIONS_PER_SENDER_PER_DAY", 3, [0, 100_000]),
    },
    maxAttempts: int("DELIVERY_MAX_ATTEMPTS", 10, [1, 100]),
    mailTimeoutMs,
    // Resend allows 2 requests a second by default; a local SMTP server takes more.
    mailRatePerSecond: int("MAIL_RATE_PER_SECOND", mail.transport === "resend" ? 2 : 20, [1, 1000]),
    retry: { baseSeconds: int("RETRY_BASE_SECONDS", 60, [1, 86_400]), maxSeconds: int("RETRY_MAX_SECONDS", 6 * 3600, [1, 7 * 86_400]) },
    redeliveryBudgetMs,
    localRedeliveryEverySeconds: env.get("LOCAL_REDELIVERY_EVERY_SECONDS")
      ? int("LOCAL_REDELIVERY_EVERY_SECONDS", 60, [1, 86_400])
      : undefined,
    bodyTimeoutMs: int("BODY_TIMEOUT_MS", 10_000, [1_000, 60_000]),
    retention: { days: int("RETENTION_DAYS", 730, [1, 3650]), errorTextDays: int("ERROR_TEXT_RETENTION_DAYS", 30, [1, 3650]) },
  };
  const present = source.toObject ? Object.keys(source.toObject()) : source.keys ? [...source.keys()] : [];
  problems.push(...misspelledVariables(present, read));
  // What hurts delivery but stops nothing: logged as a warning, listed by /health, never a problem.
  const warnings = senderWarnings(mailFrom, studioInbox);
  return { config, problems, warnings };
}
