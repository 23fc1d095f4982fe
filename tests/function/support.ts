// What the function's tests share: the real PostgreSQL and SMTP catcher of the local stack, started
// by scripts/test/function.mjs (which passes their addresses and the platform's own function variables
// in the environment), and a handler built from the function's own modules as index.ts builds it.
import postgres from "postgres";
import { ENQUIRY_HEADERS } from "../../supabase/functions/_shared/contact-message.ts";
import { loadConfig } from "../../supabase/functions/send-contact-email/config.ts";
import { createHandler, REDELIVERY_SECRET_HEADER } from "../../supabase/functions/send-contact-email/handler.ts";
import type { LogLine } from "../../supabase/functions/send-contact-email/log.ts";
import { createMailer } from "../../supabase/functions/send-contact-email/mailer.ts";
import { createStore } from "../../supabase/functions/send-contact-email/store.ts";

export const DATABASE_URL = Deno.env.get("TEST_DATABASE_URL")!;
export const CATCHER_API = Deno.env.get("TEST_CATCHER_API")!;
/** A port nothing listens on: SMTP "down". */
export const CLOSED_PORT = Deno.env.get("TEST_CLOSED_PORT")!;
/** The catcher refuses every recipient at this domain with a permanent 550. */
export const REJECTED_DOMAIN = Deno.env.get("TEST_REJECTED_DOMAIN")!;
/** The local stack's function variables (scripts/local-stack/environment.mjs). */
export const STACK_FUNCTION_ENV: Record<string, string> = JSON.parse(Deno.env.get("TEST_FUNCTION_ENV")!);
export const ORIGIN = "https://studio.test";
export const STUDIO_INBOX = "studio@studio.test";
export const REDELIVERY_SECRET = STACK_FUNCTION_ENV.REDELIVERY_SECRET!;
export const RELAY_SECRET = STACK_FUNCTION_ENV.ENQUIRY_RELAY_SECRET!;
export const URL_ = "http://localhost/functions/v1/send-contact-email";

export const db = postgres(DATABASE_URL, { max: 2, onnotice: () => {} });
globalThis.addEventListener("unload", () => void db.end());

/**
 * The tests share one database pool (above) and the catcher across tests on purpose, so connections
 * outlive a test: Deno 2.1's leak sanitizers (the edge runtime's Deno) would flag that by design.
 */
export function test(name: string, fn: () => Promise<void> | void) {
  Deno.test({ name, fn, sanitizeOps: false, sanitizeResources: false });
}

export type Caught = {
  to: string;
  replyTo: string;
  subject: string;
  text: string;
  html: string;
  envelope: { to: string[] };
  headers: Record<string, string>;
  /** The header block as sent, unfolded: what a mail client reads before it decodes anything. */
  rawHeaders: string;
};
/** A header's raw value (unfolded), as sent. */
export function rawHeader(mail: Caught, name: string): string | undefined {
  const unfolded = mail.rawHeaders.replace(/\r?\n[ \t]+/g, " ");
  return new RegExp(`^${name}: (.*)$`, "im").exec(unfolded)?.[1];
}
export async function allMail(): Promise<Caught[]> {
  return (await (await fetch(`${CATCHER_API}/messages`)).json()) as Caught[];
}
export async function mailsAbout(token: string): Promise<Caught[]> {
  const lower = token.toLowerCase();
  // By its text, or its recipient (emailOf): a confirmation repeats a title only when it is plain words.
  return (await allMail()).filter(
    (m) => m.subject.includes(token) || m.text.includes(token) || m.envelope.to.some((to) => to.includes(lower)),
  );
}
export async function mailsTo(address: string): Promise<Caught[]> {
  return (await allMail()).filter((m) => m.envelope.to.includes(address));
}
export async function rowsAbout(token: string) {
  return await db`select e.*, (select json_agg(d order by d.kind) from contact_deliveries d where d.enquiry_id = e.id) as deliveries
    from contact_enquiries e where project_title like ${"%" + token + "%"} order by e.created_at`;
}
export const attemptsAbout = async (t: string) =>
  (await db`select d.kind, d.attempts, d.status, d.last_error from contact_deliveries d join contact_enquiries e on e.id = d.enquiry_id
    where e.project_title like ${"%" + t + "%"}`) as unknown as {
    kind: string;
    attempts: number;
    status: string;
    last_error: string | null;
  }[];
/** Every delivery of enquiries about `token` is due now, as if its backoff had passed. */
export const makeDue = (t: string) =>
  db`update contact_deliveries set next_attempt_at = now() where status = 'pending'
    and enquiry_id in (select id from contact_enquiries where project_title like ${"%" + t + "%"})`;

/** The function's variables in these tests: the platform's, aimed at this test's origin and inbox. */
export function testEnv(env: Record<string, string> = {}): Record<string, string> {
  return {
    ...STACK_FUNCTION_ENV,
    ALLOWED_ORIGINS: ORIGIN,
    STUDIO_INBOX,
    STUDIO_NAME: "Test Studio",
    MAIL_TIMEOUT_MS: "2000",
    // The limits these tests prove, not the platform's lifted local ones.
    RATE_LIMIT_PER_CLIENT: "5",
    RATE_LIMIT_GLOBAL: "100",
    CONFIRMATIONS_PER_SENDER_PER_DAY: "3",
    ENQUIRIES_PER_DAY_MAX: "100000",
    ...env,
  };
}

/**
 * The function as index.ts builds it, with `env` over the test variables; its log lines are kept.
 * `afterEnquiry: false` leaves out the redelivery run after each enquiry, for tests that count attempts.
 */
export function setup(env: Record<string, string> = {}, { afterEnquiry = true } = {}) {
  const { config, problems, warnings } = loadConfig(new Map(Object.entries(testEnv(env))));
  const store = config.databaseUrl ? createStore(config.databaseUrl, { connectTimeoutSeconds: 2, max: 2 }) : undefined;
  const mailer = createMailer(config.mail, config.mailFrom, config.mailTimeoutMs);
  const lines: LogLine[] = [];
  const background: Promise<unknown>[] = [];
  const handler = createHandler({
    config,
    problems,
    warnings,
    store,
    mailer,
    log: (line) => lines.push(line),
    waitUntil: (work) => void background.push(work),
    redeliverAfterEnquiry: afterEnquiry,
  });
  /** Answers the request, then waits for its background work (the mails), as the runtime would. */
  const handle = async (request: Request) => {
    const response = await handler(request);
    await Promise.all(background.splice(0));
    return response;
  };
  return {
    config,
    problems,
    warnings,
    handle,
    handler,
    lines,
    background,
    async [Symbol.asyncDispose]() {
      await store?.close();
      await mailer?.close();
    },
  };
}

let seq = 0;
/** A unique token per test, so tests sharing the database and the catcher never see each other. */
export const token = () => `T${Date.now().toString(36)}${(seq++).toString(36)}`;
/**
 * A client address of its own per call: every test is its own sender unless it says otherwise (one
 * IPv6 network, a /64, is one sender: client-address.ts). Deno runs each test file in its own worker
 * (this module, and `seq`, start again), hence the random part.
 */
const run = `2001:db8:${crypto.getRandomValues(new Uint16Array(1))[0]!.toString(16)}`;
export const client = () => `${run}:${(seq++ % 0x10000).toString(16)}::1`;

export function enquiry(body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}) {
  return new Request(URL_, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: ORIGIN,
      "cf-connecting-ip": client(),
      [ENQUIRY_HEADERS.idempotencyKey]: crypto.randomUUID(),
      [ENQUIRY_HEADERS.fillMs]: "5000",
      ...headers,
    },
    body:
      typeof body === "string" ? body : body instanceof Uint8Array ? new Blob([body.slice().buffer as ArrayBuffer]) : JSON.stringify(body),
    ...init,
  });
}
/** The visitor's address is unique per test too: one sender counts once per mailbox a day, and a mailbox gets three (decision 031). */
export const emailOf = (t: string) => `ada-${t.toLowerCase()}@example.com`;
export const valid = (t: string) => ({
  name: "Ada Lovelace",
  email: emailOf(t),
  projectTitle: `Debut EP ${t}`,
  projectDetails: `Four songs ${t}`,
});

export const callRedeliver = (fn: { handle(r: Request): Promise<Response> }) =>
  fn.handle(new Request(`${URL_}/redeliver`, { method: "POST", headers: { [REDELIVERY_SECRET_HEADER]: REDELIVERY_SECRET } }));

/** Waits until `check` holds, or `timeoutMs` passes; returns its last value. */
export async function until<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
