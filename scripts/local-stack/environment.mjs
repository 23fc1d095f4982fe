// The one description of the local stack's environment: its ports, its URLs, and every variable
// the function and the site get. `npm run stack`, `npm run dev`, the browser tests, the function's
// tests, the load test and the bench all start the stack through stack.mjs, which takes its
// variables from here; a caller only names what it changes (for example a lower rate limit). For
// `npm run stack` and `npm run dev`, the developer's env files and shell sit over these values
// (developer-config.mjs).
//
// The values are local ones on purpose: secrets anyone can read in this file, URLs on 127.0.0.1 and
// `.example` addresses. The site refuses them in production unless LOCAL_STACK=1 says this is a local
// run (docs/decisions/014); the function is never in production outside the hosted platform.

/** The ports `supabase start` uses (supabase/config.toml), so a developer's tools find the same things. */
export const DEFAULT_PORTS = Object.freeze({ site: 3000, function: 54321, db: 54322, mailUi: 54324, smtp: 54325 });

/**
 * Ports from the environment (PORT, FUNCTION_PORT, DB_PORT, MAIL_UI_PORT, SMTP_PORT), else the defaults;
 * the CDN (nginx, `--cdn`) listens 80 above the site.
 */
export function portsFromEnv(env = process.env) {
  const port = (name, fallback) => (env[name] ? Number(env[name]) : fallback);
  const site = port("PORT", DEFAULT_PORTS.site);
  return {
    site,
    cdn: site + 80,
    function: port("FUNCTION_PORT", DEFAULT_PORTS.function),
    db: port("DB_PORT", DEFAULT_PORTS.db),
    mailUi: port("MAIL_UI_PORT", DEFAULT_PORTS.mailUi),
    smtp: port("SMTP_PORT", DEFAULT_PORTS.smtp),
  };
}

/** The variables that set the stack's ports (what `portsFromEnv` reads). */
export function portsToEnv(ports) {
  return {
    PORT: String(ports.site),
    FUNCTION_PORT: String(ports.function),
    DB_PORT: String(ports.db),
    MAIL_UI_PORT: String(ports.mailUi),
    SMTP_PORT: String(ports.smtp),
  };
}

/** Shared by the local site and function; each at least 32 characters, as production requires. */
export const LOCAL_SECRETS = Object.freeze({
  relay: "local-relay-secret-not-for-production-0001",
  redelivery: "local-redelivery-secret-not-for-production",
  ipHashSalt: "local-ip-hash-salt-not-for-production-0001",
  // The site's own: who sends it reads /healthz's details (tests, the bench, `npm run verify` locally).
  healthz: "local-healthz-secret-not-for-production-01",
  // A Resend-style (Svix) signing secret: "whsec_" and base64 of the key.
  resendWebhook: `whsec_${Buffer.from("local-resend-webhook-key-not-for-production").toString("base64")}`,
});

/** The sender is an address of its own, never the inbox: filters distrust mail From and To one address. */
export const LOCAL_STUDIO = Object.freeze({
  inbox: "bookings@studio.example",
  sender: "website@studio.example",
  name: "Lakeshore Sound Studio",
});
export const LOCAL_ANON_KEY = "local-anon-key";

/**
 * The function's variables. `siteOrigins` are the origins the browser may call it from (the site, and
 * the CDN in front of it when one runs).
 */
export function functionEnvironment({ databaseUrl, smtpPort, siteOrigins }) {
  return {
    SUPABASE_DB_URL: databaseUrl,
    // Empty, not unset: a pooler URL exported in the developer's shell would otherwise reach the function
    // (its environment starts from the shell's) and win over the stack's database.
    DB_POOLER_URL: "",
    MAIL_TRANSPORT: "smtp",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtpPort),
    MAIL_FROM: `${LOCAL_STUDIO.name} <${LOCAL_STUDIO.sender}>`,
    STUDIO_INBOX: LOCAL_STUDIO.inbox,
    STUDIO_NAME: LOCAL_STUDIO.name,
    ALLOWED_ORIGINS: siteOrigins.join(","),
    // Locally no platform sets this header: the function, served without one, takes the caller's socket
    // address in its place (index.ts), so every local caller, browser or the site's relay, is the one
    // sender 127.0.0.1, and the per-sender limits below are raised to keep out of the way.
    CLIENT_IP_HEADER: "cf-connecting-ip",
    IP_HASH_SALT: LOCAL_SECRETS.ipHashSalt,
    REDELIVERY_SECRET: LOCAL_SECRETS.redelivery,
    ENQUIRY_RELAY_SECRET: LOCAL_SECRETS.relay,
    RESEND_WEBHOOK_SECRET: LOCAL_SECRETS.resendWebhook,
    // Every local request comes from one address: keep the limits out of a developer's (and a tester's) way.
    RATE_LIMIT_PER_CLIENT: "1000",
    RATE_LIMIT_GLOBAL: "1000",
    CONFIRMATIONS_PER_SENDER_PER_DAY: "1000",
    ENQUIRIES_PER_DAY_MAX: "100000",
  };
}

/**
 * The site's variables. `siteOrigins`: the other addresses a browser reaches the site at (`localhost`,
 * the CDN in front), whose posts are the site's own.
 */
export function siteEnvironment({ functionUrl, siteUrl, siteOrigins = [] }) {
  return {
    SITE_URL: siteUrl,
    SITE_ORIGINS: siteOrigins.join(","),
    HEALTHZ_SECRET: LOCAL_SECRETS.healthz,
    SUPABASE_URL: functionUrl,
    SUPABASE_ANON_KEY: LOCAL_ANON_KEY,
    STUDIO_EMAIL: LOCAL_STUDIO.inbox,
    STUDIO_NAME: LOCAL_STUDIO.name,
    ENQUIRY_RELAY_SECRET: LOCAL_SECRETS.relay,
    // Local URLs, example addresses and the secrets above are fine here (decision 014).
    LOCAL_STACK: "1",
  };
}
