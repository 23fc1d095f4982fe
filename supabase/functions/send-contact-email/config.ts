/**
 * The function's environment, read and checked once at start-up. Every variable is listed in
 * README.md and .env.example. A missing required variable stops the function with a clear message.
 */

export type MailConfig =
  | { transport: "resend"; apiKey: string; apiUrl: string }
  | { transport: "smtp"; host: string; port: number; secure: boolean; user?: string; pass?: string };

export type Config = {
  /** DB_POOLER_URL (Supavisor, transaction mode) when set, else the direct SUPABASE_DB_URL. */
  databaseUrl: string;
  /**
   * Connections per function isolate. Hosted Supabase gives functions the direct connection
   * (SUPABASE_DB_URL), and every isolate opens its own pool: keep it small, or set DB_POOLER_URL.
   */
  dbPoolMax: number;
  mail: MailConfig;
  mailFrom: string;
  studioInbox: string;
  studioName: string;
  allowedOrigins: string[];
  /** The one header the platform sets to the caller's address; never a header clients can set. */
  clientIpHeader: string;
  ipHashSalt: string;
  relaySecret?: string;
  redeliverySecret?: string;
  minFillMs: number;
  rateLimit: { perClient: number; clientWindowSeconds: number; global: number; globalWindowSeconds: number };
  maxAttempts: number;
  mailTimeoutMs: number;
  /** Sends per second at most during redelivery, under the provider's own rate limit. */
  mailRatePerSecond: number;
  /** A failed delivery waits retryBaseSeconds × 2^(attempts-1), at most retryMaxSeconds. */
  retry: { baseSeconds: number; maxSeconds: number };
  /** How long one /redeliver call may work, well inside the platform's request limits. */
  redeliveryBudgetMs: number;
  /** How long a client may take to send the request body (then 408). */
  bodyTimeoutMs: number;
};

type Env = { get(key: string): string | undefined };

export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  const str = (key: string, fallback?: string) => {
    const value = env.get(key)?.trim() || fallback;
    if (value === undefined) problems.push(`${key} is required`);
    return value ?? "";
  };
  const int = (key: string, fallback: number) => {
    const raw = env.get(key)?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) problems.push(`${key} must be a whole number, got "${raw}"`);
    return value;
  };

  const transport = str("MAIL_TRANSPORT", env.get("RESEND_API_KEY") ? "resend" : "smtp");
  let mail: MailConfig;
  if (transport === "resend") {
    mail = { transport, apiKey: str("RESEND_API_KEY"), apiUrl: str("RESEND_API_URL", "https://api.resend.com") };
  } else if (transport === "smtp") {
    mail = {
      transport,
      host: str("SMTP_HOST", "127.0.0.1"),
      port: int("SMTP_PORT", 54325),
      secure: env.get("SMTP_SECURE") === "true",
      user: env.get("SMTP_USER") || undefined,
      pass: env.get("SMTP_PASS") || undefined,
    };
  } else {
    problems.push(`MAIL_TRANSPORT must be "resend" or "smtp", got "${transport}"`);
    mail = { transport: "smtp", host: "", port: 0, secure: false };
  }

  const config: Config = {
    // Hosted Supabase sets SUPABASE_DB_URL (the direct connection) for every function. Secrets may not
    // start with SUPABASE_, hence DB_POOLER_URL for the project's own pooled URL.
    databaseUrl: env.get("DB_POOLER_URL")?.trim() || str("SUPABASE_DB_URL"),
    dbPoolMax: int("DB_POOL_MAX", 3),
    mail,
    mailFrom: str("MAIL_FROM", "Studio Bookings <bookings@studio.example>"),
    studioInbox: str("STUDIO_INBOX", "bookings@studio.example"),
    studioName: str("STUDIO_NAME", "Lakeshore Sound Studio"),
    allowedOrigins: str("ALLOWED_ORIGINS", "http://localhost:3000")
      .split(",")
      .map((o) => o.trim().replace(/\/+$/, ""))
      .filter(Boolean),
    clientIpHeader: str("CLIENT_IP_HEADER", "cf-connecting-ip").toLowerCase(),
    ipHashSalt: str("IP_HASH_SALT", "local-development-salt"),
    relaySecret: env.get("ENQUIRY_RELAY_SECRET") || undefined,
    redeliverySecret: env.get("REDELIVERY_SECRET") || undefined,
    minFillMs: int("MIN_FILL_MS", 1500),
    rateLimit: {
      perClient: int("RATE_LIMIT_PER_CLIENT", 5),
      clientWindowSeconds: int("RATE_LIMIT_CLIENT_WINDOW_SECONDS", 600),
      global: int("RATE_LIMIT_GLOBAL", 100),
      globalWindowSeconds: int("RATE_LIMIT_GLOBAL_WINDOW_SECONDS", 600),
    },
    maxAttempts: int("DELIVERY_MAX_ATTEMPTS", 10),
    mailTimeoutMs: int("MAIL_TIMEOUT_MS", 10_000),
    // Resend allows 2 requests a second by default; a local SMTP server takes more.
    mailRatePerSecond: int("MAIL_RATE_PER_SECOND", mail.transport === "resend" ? 2 : 20),
    retry: { baseSeconds: int("RETRY_BASE_SECONDS", 60), maxSeconds: int("RETRY_MAX_SECONDS", 6 * 3600) },
    // Hosted functions may run 150 s (free plan) of wall clock; the scheduler calls every 5 minutes.
    redeliveryBudgetMs: int("REDELIVERY_BUDGET_MS", 25_000),
    bodyTimeoutMs: int("BODY_TIMEOUT_MS", 10_000),
  };
  if (config.mailRatePerSecond < 1) problems.push("MAIL_RATE_PER_SECOND must be at least 1");
  if (problems.length > 0) throw new Error(`send-contact-email is misconfigured:\n- ${problems.join("\n- ")}`);
  return config;
}
