/**
 * The function's environment, read and checked once at start-up. Every variable is listed in
 * README.md and .env.example. A missing required variable stops the function with a clear message.
 */

export type MailConfig =
  | { transport: "resend"; apiKey: string; apiUrl: string }
  | { transport: "smtp"; host: string; port: number; secure: boolean; user?: string; pass?: string };

export type Config = {
  databaseUrl: string;
  /** Connections per function instance; Supabase's pooler shares them across instances. */
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
    // Hosted Supabase sets SUPABASE_DB_URL for every function.
    databaseUrl: str("SUPABASE_DB_URL"),
    dbPoolMax: int("DB_POOL_MAX", 10),
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
  };
  if (problems.length > 0) throw new Error(`send-contact-email is misconfigured:\n- ${problems.join("\n- ")}`);
  return config;
}
