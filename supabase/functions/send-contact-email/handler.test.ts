// Behaviour of send-contact-email against a real PostgreSQL (scripts/lib/postgres.mjs) and a real SMTP catcher, both
// started by scripts/test-function.mjs (which passes their addresses in the environment).
import assert from "node:assert/strict";
import postgres from "postgres";
import { ENQUIRY_HEADERS, MAX_BODY_BYTES } from "../_shared/contact-message.ts";
import { loadConfig } from "./config.ts";
import { createHandler, REDELIVERY_SECRET_HEADER } from "./handler.ts";
import type { LogLine } from "./log.ts";
import { createMailer } from "./mailer.ts";
import { createStore } from "./store.ts";

const DATABASE_URL = Deno.env.get("TEST_DATABASE_URL")!;
const CATCHER_API = Deno.env.get("TEST_CATCHER_API")!;
const SMTP_PORT = Deno.env.get("TEST_SMTP_PORT")!;
const CLOSED_PORT = Deno.env.get("TEST_CLOSED_PORT")!;
/** The catcher refuses every recipient at this domain with a permanent 550. */
const REJECTED_DOMAIN = Deno.env.get("TEST_REJECTED_DOMAIN")!;
const ORIGIN = "https://studio.example";
const URL_ = "http://localhost/functions/v1/send-contact-email";

const db = postgres(DATABASE_URL, { max: 2, onnotice: () => {} });

/**
 * The tests share one database pool (above) and the catcher across tests on purpose, so connections
 * outlive a test: Deno 2.1's leak sanitizers (the edge runtime's Deno) would flag that by design.
 */
function test(name: string, fn: () => Promise<void> | void) {
  Deno.test({ name, fn, sanitizeOps: false, sanitizeResources: false });
}

type Caught = { to: string; replyTo: string; subject: string; text: string; html: string };
async function mailsAbout(token: string): Promise<Caught[]> {
  const all = (await (await fetch(`${CATCHER_API}/messages`)).json()) as Caught[];
  return all.filter((m) => m.subject.includes(token) || m.text.includes(token));
}
async function rowsAbout(token: string) {
  return await db`select e.*, (select json_agg(d order by d.kind) from contact_deliveries d where d.enquiry_id = e.id) as deliveries
    from contact_enquiries e where project_title like ${"%" + token + "%"}`;
}

function setup(env: Record<string, string> = {}) {
  const config = loadConfig(
    new Map(Object.entries({
      SUPABASE_DB_URL: DATABASE_URL,
      SMTP_PORT,
      ALLOWED_ORIGINS: ORIGIN,
      STUDIO_INBOX: "studio@studio.example",
      STUDIO_NAME: "Test Studio",
      REDELIVERY_SECRET: "redeliver-secret",
      MAIL_TIMEOUT_MS: "2000",
      ...env,
    })),
  );
  const store = createStore(config.databaseUrl, { connectTimeoutSeconds: 2 });
  const mailer = createMailer(config.mail, config.mailFrom, config.mailTimeoutMs);
  const lines: LogLine[] = [];
  const background: Promise<unknown>[] = [];
  const handler = createHandler({ config, store, mailer, log: (line) => lines.push(line), waitUntil: (w) => background.push(w) });
  /** Answers the request, then waits for its background work (the mails), as the runtime would. */
  const handle = async (request: Request) => {
    const response = await handler(request);
    await Promise.all(background.splice(0));
    return response;
  };
  return {
    handle,
    handler,
    lines,
    async [Symbol.asyncDispose]() {
      await store.close();
      await mailer.close();
    },
  };
}

let seq = 0;
/** A unique token per test, so tests sharing the database and the catcher never see each other. */
const token = () => `T${Date.now().toString(36)}${(seq++).toString(36)}`;
const client = () => `203.0.113.${(seq++ % 250) + 1}`;

function enquiry(body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}) {
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
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
  });
}
/** The visitor's address is unique per test too: a confirmation goes to one address at most once an hour. */
const emailOf = (t: string) => `ada+${t.toLowerCase()}@example.com`;
const valid = (t: string) => ({ name: "Ada Lovelace", email: emailOf(t), projectTitle: `Debut EP ${t}`, projectDetails: `Four songs ${t}` });

test("stores one row and mails the studio and the visitor with the entered texts", async () => {
  await using fn = setup();
  const t = token();
  const response = await fn.handle(enquiry(valid(t)));
  const body = await response.json();
  assert.equal(response.status, 200);
  assert.equal(body.status, "ok");
  assert.equal(response.headers.get("access-control-allow-origin"), ORIGIN);

  const rows = await rowsAbout(t);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.id, body.id);
  assert.equal(rows[0]!.name, "Ada Lovelace");
  assert.equal(rows[0]!.project_details, `Four songs ${t}`);
  assert.notEqual(rows[0]!.client_hash, "", "the client is stored only as a hash");
  assert.deepEqual(rows[0]!.deliveries.map((d: { status: string }) => d.status), ["sent", "sent"]);

  const mails = await mailsAbout(t);
  assert.equal(mails.length, 2);
  const studio = mails.find((m) => m.to === "studio@studio.example")!;
  assert.equal(studio.replyTo, emailOf(t));
  assert.equal(studio.subject, `New enquiry: Debut EP ${t}`);
  assert.match(studio.text, new RegExp(`Four songs ${t}`));
  assert.match(studio.html, /Ada Lovelace/);
  const confirmation = mails.find((m) => m.to === emailOf(t))!;
  assert.match(confirmation.text, /Hi Ada Lovelace,/);
  assert.match(confirmation.text, /We'll get back to you within 24 hours\./);
  assert.doesNotMatch(confirmation.text, /Four songs/, "free-text details never go to the visitor's address");
});

test("answers over real HTTP with Deno.serve, as supabase-js calls it", async () => {
  await using fn = setup();
  const t = token();
  await using server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, fn.handle);
  const response = await fetch(`http://127.0.0.1:${server.addr.port}/functions/v1/send-contact-email`, enquiry(valid(t)));
  assert.equal(response.status, 200);
  assert.equal((await response.json()).status, "ok");
  assert.equal((await rowsAbout(t)).length, 1);
  assert.equal((await mailsAbout(t)).length, 2);
});

const badInputs: [string, (t: string) => Request, number][] = [
  ["a missing name", (t) => enquiry({ ...valid(t), name: "  " }), 422],
  ["a missing email", (t) => enquiry({ ...valid(t), email: undefined }), 422],
  ["a missing project title", (t) => enquiry({ ...valid(t), projectTitle: "", projectDetails: t }), 422],
  ["a malformed email", (t) => enquiry({ ...valid(t), email: "ada@" }), 422],
  ["a name over 100 characters", (t) => enquiry({ ...valid(t), name: "x".repeat(101) }), 422],
  ["details over 5000 characters", (t) => enquiry({ ...valid(t), projectDetails: "x".repeat(5001) }), 422],
  ["a line break in the name (header injection)", (t) => enquiry({ ...valid(t), name: "Ada\r\nBcc: victim@example.com" }), 422],
  ["a line break in the email (header injection)", (t) => enquiry({ ...valid(t), email: "ada@example.com\nBcc: v@example.com" }), 422],
  ["a line break in the project title", (t) => enquiry({ ...valid(t), projectTitle: `EP ${t}\r\nX-Spam: 1` }), 422],
  ["a field that is not text", (t) => enquiry({ ...valid(t), name: ["Ada"] }), 422],
  ["a body that is not JSON", (t) => enquiry(`name=Ada&title=${t}`), 400],
  ["a body that is not declared as JSON", (t) => enquiry(JSON.stringify(valid(t)), { "content-type": "text/plain" }), 415],
  ["a body over the size cap", (t) => enquiry({ ...valid(t), padding: "x".repeat(MAX_BODY_BYTES) }), 413],
  ["the wrong method", () => new Request(URL_, { method: "PUT", headers: { origin: ORIGIN } }), 405],
  ["a malformed idempotency key", (t) => enquiry(valid(t), { [ENQUIRY_HEADERS.idempotencyKey]: "not-a-uuid" }), 400],
  ["a form filled faster than a person can", (t) => enquiry(valid(t), { [ENQUIRY_HEADERS.fillMs]: "200" }), 400],
  ["no fill time at all", (t) => enquiry(valid(t), { [ENQUIRY_HEADERS.fillMs]: "" }), 400],
  ["an origin that is not the site's", (t) => enquiry(valid(t), { origin: "https://evil.example" }), 403],
];

for (const [what, request, status] of badInputs) {
  test(`refuses ${what} with ${status}, storing and sending nothing`, async () => {
    await using fn = setup();
    const t = token();
    const response = await fn.handle(request(t));
    assert.equal(response.status, status);
    const body = await response.json();
    assert.ok(["invalid", "error", "too-fast"].includes(body.status), JSON.stringify(body));
    assert.equal(response.headers.get("access-control-allow-methods"), "POST, OPTIONS", "CORS headers on errors too");
    assert.equal((await rowsAbout(t)).length, 0);
    assert.equal((await mailsAbout(t)).length, 0);
  });
}

test("names each invalid field in the answer", async () => {
  await using fn = setup();
  const response = await fn.handle(enquiry({ name: "", email: "nope", projectTitle: "" }));
  const body = await response.json();
  assert.equal(body.status, "invalid");
  assert.deepEqual(Object.keys(body.fieldErrors).sort(), ["email", "name", "projectTitle"]);
  assert.equal(body.fieldErrors.name, "Name is required.");
});

test("ignores unknown fields", async () => {
  await using fn = setup();
  const t = token();
  const response = await fn.handle(enquiry({ ...valid(t), role: "admin", id: "x" }));
  assert.equal(response.status, 200);
  assert.equal((await rowsAbout(t)).length, 1);
});

test("a filled honeypot gets a success but nothing is stored or sent", async () => {
  await using fn = setup();
  const t = token();
  const response = await fn.handle(enquiry(valid(t), { [ENQUIRY_HEADERS.trap]: "https://spam.example" }));
  assert.equal(response.status, 200);
  assert.equal((await response.json()).status, "ok");
  assert.equal((await rowsAbout(t)).length, 0);
  assert.equal((await mailsAbout(t)).length, 0);
});

test("<script> and HTML from the visitor arrive escaped in the HTML mails", async () => {
  await using fn = setup();
  const t = token();
  const response = await fn.handle(
    enquiry({ name: `<img src=x onerror=alert(1)>`, email: emailOf(t), projectTitle: `<b>${t}</b>`, projectDetails: `<script>alert("${t}")</script>` }),
  );
  assert.equal(response.status, 200);
  const mails = await mailsAbout(t);
  assert.equal(mails.length, 2);
  for (const mail of mails) {
    assert.doesNotMatch(mail.html, /<script|<img|<b>/i);
    assert.match(mail.html, /&lt;(script|img|b)/);
  }
  const studio = mails.find((m) => m.to === "studio@studio.example")!;
  assert.match(studio.html, /&lt;script&gt;alert\(&quot;/);
});

test("the same idempotency key twice stores one row, sends one pair of mails and answers the same", async () => {
  await using fn = setup();
  const t = token();
  const key = crypto.randomUUID();
  const [first, second] = await Promise.all([
    fn.handle(enquiry(valid(t), { [ENQUIRY_HEADERS.idempotencyKey]: key })),
    fn.handle(enquiry(valid(t), { [ENQUIRY_HEADERS.idempotencyKey]: key })),
  ]);
  const third = await fn.handle(enquiry(valid(t), { [ENQUIRY_HEADERS.idempotencyKey]: key }));
  const bodies = await Promise.all([first, second, third].map((r) => r.json()));
  assert.deepEqual([first.status, second.status, third.status], [200, 200, 200]);
  assert.equal(new Set(bodies.map((b) => b.id)).size, 1);
  assert.equal((await rowsAbout(t)).length, 1);
  assert.equal((await mailsAbout(t)).length, 2);
});

test("with SMTP down the visitor gets 2xx, the delivery stays pending, and redelivery sends it exactly once", async () => {
  const t = token();
  {
    await using down = setup({ SMTP_PORT: CLOSED_PORT });
    const response = await down.handle(enquiry(valid(t)));
    assert.equal(response.status, 200);
    assert.equal((await response.json()).status, "ok");
  }
  const [row] = await rowsAbout(t);
  assert.ok(row, "the enquiry is stored");
  for (const delivery of row.deliveries) {
    assert.equal(delivery.status, "pending");
    assert.equal(delivery.attempts, 1);
    assert.match(delivery.last_error, /ECONNREFUSED|connect/i);
  }
  assert.equal((await mailsAbout(t)).length, 0);

  // The failed deliveries wait (backoff); let their time come.
  await makeDue(t);
  await using up = setup();
  const redeliver = () => callRedeliver(up);
  const [a, b] = await Promise.all([redeliver(), redeliver()]);
  const again = await redeliver();
  assert.deepEqual([a.status, b.status, again.status], [200, 200, 200]);
  assert.equal((await again.json()).sent, 0, "nothing left to send");
  assert.equal((await mailsAbout(t)).length, 2, "each mail exactly once");
  const [after] = await rowsAbout(t);
  assert.deepEqual(after!.deliveries.map((d: { status: string }) => d.status), ["sent", "sent"]);
});

const callRedeliver = (fn: { handle(r: Request): Promise<Response> }) =>
  fn.handle(new Request(`${URL_}/redeliver`, { method: "POST", headers: { [REDELIVERY_SECRET_HEADER]: "redeliver-secret" } }));
/** Every delivery of enquiries about `token` is due now, as if its backoff had passed. */
const makeDue = (t: string) =>
  db`update contact_deliveries set next_attempt_at = now() where status = 'pending'
    and enquiry_id in (select id from contact_enquiries where project_title like ${"%" + t + "%"})`;
const attemptsAbout = async (t: string) =>
  (await db`select d.attempts, d.status from contact_deliveries d join contact_enquiries e on e.id = d.enquiry_id
    where e.project_title like ${"%" + t + "%"}`) as unknown as { attempts: number; status: string }[];

test("with the provider refusing, then silent, three scheduler calls each try one delivery and abandon none; once back, each mail goes exactly once", async () => {
  const t = token();
  const enquiries = 30; // 60 deliveries
  {
    await using down = setup({ SMTP_PORT: CLOSED_PORT });
    for (let i = 0; i < enquiries; i++) assert.equal((await down.handle(enquiry(valid(`${t}-${i}`)))).status, 200);
  }
  assert.deepEqual((await attemptsAbout(t)).map((d) => d.attempts), Array(enquiries * 2).fill(1));

  // Refusing (nothing listens), then silent (accepts and never answers): three calls each, as fast as they come.
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  await makeDue(t);
  for (const port of [CLOSED_PORT, String(silent.addr.port)]) {
    await using failing = setup({ SMTP_PORT: port, MAIL_TIMEOUT_MS: "1000" });
    for (let call = 0; call < 3; call++) {
      const report = await (await callRedeliver(failing)).json();
      assert.equal(report.stopped, "provider-failure", JSON.stringify(report));
      assert.equal(report.failed, 1);
      assert.equal(report.sent, 0);
    }
  }
  silent.close();
  held.forEach((conn) => conn.close());
  const afterOutage = await attemptsAbout(t);
  const tries = afterOutage.reduce((sum, d) => sum + d.attempts, 0) - enquiries * 2;
  assert.ok(tries <= 6, `at most one try per call, got ${tries} in 6 calls`);
  assert.ok(afterOutage.every((d) => d.attempts <= 2 && d.status === "pending"), JSON.stringify(afterOutage));

  // The provider is back: everything due goes out, each mail exactly once.
  await makeDue(t);
  await using up = setup();
  for (let call = 0; call < 10 && (await attemptsAbout(t)).some((d) => d.status !== "sent"); call++) {
    assert.equal((await callRedeliver(up)).status, 200);
  }
  assert.ok((await attemptsAbout(t)).every((d) => d.status === "sent"));
  const mails = await mailsAbout(t);
  assert.equal(mails.length, enquiries * 2, "each of the 60 mails exactly once");
});

test("a permanent refusal (no such recipient) is dead after one try: in the view, in the error log, in /redeliver's answer", async () => {
  await using fn = setup();
  const t = token();
  const response = await fn.handle(enquiry({ ...valid(t), email: `nobody@${REJECTED_DOMAIN}` }));
  assert.equal(response.status, 200, "the enquiry itself is stored");
  const deliveries = await attemptsAbout(t);
  assert.deepEqual(deliveries.map((d) => [d.status, d.attempts]).sort(), [["dead", 1], ["sent", 1]]);
  const [dead] = await db`select * from private.undelivered_mail where project_title = ${valid(t).projectTitle}`;
  assert.equal(dead!.kind, "confirmation");
  assert.match(dead!.reason, /550|no such user/);
  const logged = fn.lines.find((l) => l.event === "delivery-dead");
  assert.equal(logged?.level, "error");
  assert.equal(logged?.permanent, true);
  const report = await (await callRedeliver(fn)).json();
  assert.ok(report.undeliveredTotal >= 1, JSON.stringify(report));
  assert.equal((await attemptsAbout(t)).find((d) => d.status === "dead")!.attempts, 1, "never tried again");
});

test("visitors without a trustworthy address do not share a per-client limit (only the global cap applies), and it is logged", async () => {
  await using fn = setup({ RATE_LIMIT_PER_CLIENT: "1" });
  const t = token();
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    const request = enquiry(valid(`${t}-${i}`));
    request.headers.delete("cf-connecting-ip");
    statuses.push((await fn.handle(request)).status);
  }
  assert.deepEqual(statuses, [200, 200, 200]);
  assert.ok(fn.lines.some((l) => l.client === "unknown"));
  const seen = fn.lines.find((l) => l.event === "client-address-headers");
  assert.deepEqual(seen?.present, [], "names the address headers that arrived (none here)");
});

test("DB_POOLER_URL (the pooled connection) wins over SUPABASE_DB_URL, and the per-isolate pool is small", () => {
  const config = loadConfig(new Map([["SUPABASE_DB_URL", "postgres://direct"], ["DB_POOLER_URL", "postgres://pooler:6543"]]));
  assert.equal(config.databaseUrl, "postgres://pooler:6543");
  assert.equal(loadConfig(new Map([["SUPABASE_DB_URL", "postgres://direct"]])).databaseUrl, "postgres://direct");
  assert.ok(config.dbPoolMax <= 3);
});

test("redelivery refuses a caller without the secret", async () => {
  await using fn = setup();
  const response = await fn.handle(new Request(`${URL_}/redeliver`, { method: "POST", headers: { [REDELIVERY_SECRET_HEADER]: "guess" } }));
  assert.equal(response.status, 401);
});

test("with the database down the answer is 503 and nothing is mailed", async () => {
  await using fn = setup({ SUPABASE_DB_URL: `postgres://postgres@127.0.0.1:${CLOSED_PORT}/postgres` });
  const t = token();
  const response = await fn.handle(enquiry(valid(t)));
  assert.equal(response.status, 503);
  assert.deepEqual(await response.json(), { status: "error", message: "We could not save your enquiry. Please try again in a moment." });
  assert.equal(response.headers.get("access-control-allow-origin"), ORIGIN);
  assert.equal((await mailsAbout(t)).length, 0);
});

test("returns 429 with Retry-After after 5 enquiries from one client in the window", async () => {
  await using fn = setup();
  const t = token();
  const ip = `198.51.100.${(seq % 250) + 1}`;
  const statuses: number[] = [];
  let last: Response | undefined;
  for (let i = 0; i < 6; i++) {
    last = await fn.handle(enquiry(valid(`${t}-${i}`), { "cf-connecting-ip": ip }));
    statuses.push(last.status);
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  const retryAfter = Number(last!.headers.get("retry-after"));
  assert.ok(retryAfter >= 1 && retryAfter <= 600, `Retry-After ${retryAfter}`);
  assert.equal((await last!.json()).status, "rate-limited");
  assert.equal((await rowsAbout(`${t}-5`)).length, 0);
  // Another client is not affected.
  assert.equal((await fn.handle(enquiry(valid(`${t}-other`)))).status, 200);
});

test("a burst across a window boundary is still limited (sliding window)", async () => {
  await using fn = setup({ RATE_LIMIT_CLIENT_WINDOW_SECONDS: "2" });
  const ip = client();
  const t = token();
  // Start just after a boundary, so the five fit in one 2-second window.
  await new Promise((r) => setTimeout(r, 2000 - (Date.now() % 2000) + 50));
  for (let i = 0; i < 5; i++) {
    assert.equal((await fn.handle(enquiry(valid(`${t}-${i}`), { "cf-connecting-ip": ip }))).status, 200);
  }
  // Just after the next boundary: a fixed window would have started counting from zero again.
  await new Promise((r) => setTimeout(r, 2000 - (Date.now() % 2000) + 50));
  assert.equal((await fn.handle(enquiry(valid(`${t}-late`), { "cf-connecting-ip": ip }))).status, 429);
});

test("a spoofed X-Forwarded-For does not escape the per-client limit", async () => {
  await using fn = setup({ RATE_LIMIT_PER_CLIENT: "1" });
  const ip = `192.0.2.${(seq % 250) + 1}`;
  const t = token();
  assert.equal((await fn.handle(enquiry(valid(`${t}-a`), { "cf-connecting-ip": ip, "x-forwarded-for": "1.1.1.1" }))).status, 200);
  assert.equal((await fn.handle(enquiry(valid(`${t}-b`), { "cf-connecting-ip": ip, "x-forwarded-for": "8.8.8.8" }))).status, 429);
});

test("past the global rate an enquiry is still stored, but its mails are held for the digest", async () => {
  await using fn = setup({ RATE_LIMIT_GLOBAL: "0" });
  const t = token();
  assert.equal((await fn.handle(enquiry(valid(t)))).status, 200);
  const [row] = await rowsAbout(t);
  assert.equal(row!.held, true);
  assert.deepEqual(row!.deliveries.map((d: { status: string }) => d.status), ["held", "held"]);
  assert.equal((await mailsAbout(t)).length, 0);
});

test("answers the CORS preflight for the site's origin only", async () => {
  await using fn = setup();
  const preflight = (origin: string) =>
    fn.handle(new Request(URL_, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST" } }));
  const ok = await preflight(ORIGIN);
  assert.equal(ok.status, 204);
  assert.equal(ok.headers.get("access-control-allow-origin"), ORIGIN);
  assert.match(ok.headers.get("access-control-allow-headers")!, /idempotency-key/);
  assert.match(ok.headers.get("access-control-allow-headers")!, /x-client-info/);
  const other = await preflight("https://evil.example");
  assert.equal(other.headers.get("access-control-allow-origin"), null);
});

test("as role anon, reading or writing enquiries is refused", async () => {
  for (const role of ["anon", "authenticated"]) {
    await assert.rejects(
      db.begin(async (tx) => {
        await tx.unsafe(`set local role ${role}`);
        await tx`select * from contact_enquiries limit 1`;
      }),
      /permission denied/,
    );
    await assert.rejects(
      db.begin(async (tx) => {
        await tx.unsafe(`set local role ${role}`);
        await tx`insert into contact_enquiries (idempotency_key, name, email, project_title, client_hash)
          values (gen_random_uuid(), 'x', 'x@x.x', 'x', 'x')`;
      }),
      /permission denied/,
    );
    await assert.rejects(
      db.begin(async (tx) => {
        await tx.unsafe(`set local role ${role}`);
        await tx`select private.submit_enquiry(gen_random_uuid(), 'x', 'x@x.x', 'x', '', 'x', 5, '1 minute', 5, '1 minute')`;
      }),
      /permission denied/,
    );
  }
  const [rls] = await db`select bool_and(relrowsecurity) as on from pg_class where relname in ('contact_enquiries', 'contact_deliveries', 'contact_rate_limits')`;
  assert.equal(rls!.on, true);
});

test("answers before the mails are sent, and sends them afterwards", async () => {
  const t = token();
  const background: Promise<unknown>[] = [];
  const config = loadConfig(new Map([["SUPABASE_DB_URL", DATABASE_URL], ["SMTP_PORT", SMTP_PORT]]));
  const store = createStore(DATABASE_URL);
  const mailer = createMailer(config.mail, config.mailFrom, 2000);
  const handler = createHandler({ config, store, mailer, log() {}, waitUntil: (w) => background.push(w) });
  const response = await handler(enquiry(valid(t), { origin: "" }));
  assert.equal(response.status, 200);
  assert.equal(background.length, 1, "the mails are background work");
  await Promise.all(background);
  assert.equal((await mailsAbout(t)).length, 2);
  await store.close();
  await mailer.close();
});

test("logs one structured line per request without personal data", async () => {
  await using fn = setup();
  const t = token();
  await fn.handle(enquiry(valid(t)));
  const requestLines = fn.lines.filter((l) => "status" in l);
  assert.equal(requestLines.length, 1);
  const line = JSON.stringify(fn.lines);
  assert.match(line, /"status":200/);
  assert.doesNotMatch(line, /Ada|ada\+|Debut EP|203\.0\.113/);
});

test("a missing required variable stops start-up with a clear message", () => {
  assert.throws(() => loadConfig(new Map()), /SUPABASE_DB_URL is required/);
  assert.throws(() => loadConfig(new Map([["SUPABASE_DB_URL", "x"], ["MAIL_TRANSPORT", "pigeon"]])), /MAIL_TRANSPORT must be/);
});

globalThis.addEventListener("unload", () => void db.end());

// --- Hostile input and floods, by class (issue 12) ------------------------------------------------

const undeliverable = ["ada.@example.com", "ada..b@example.com", "ada@example.com.", "ada@example..com", `${"a".repeat(65)}@example.com`, "ada@-x.com", "ada@1.2.3.4"];
for (const email of undeliverable) {
  test(`refuses an address mail servers refuse (${email.slice(0, 30)}) with a field error, storing and sending nothing`, async () => {
    await using fn = setup();
    const t = token();
    const response = await fn.handle(enquiry({ ...valid(t), email }));
    assert.equal(response.status, 422);
    assert.match((await response.json()).fieldErrors.email, /valid email/);
    assert.equal((await rowsAbout(t)).length, 0);
  });
}

test("accepts an IDN domain and the longest deliverable address, and mails them", async () => {
  await using fn = setup();
  for (const email of ["ada@bücher.example", `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`]) {
    const t = token();
    assert.equal((await fn.handle(enquiry({ ...valid(t), email }))).status, 200, email);
    assert.equal((await rowsAbout(t)).length, 1);
  }
});

test("counts characters a person sees: 100 emoji fit a 100-character name, 101 do not, and the database agrees", async () => {
  await using fn = setup();
  const t = token();
  assert.equal((await fn.handle(enquiry({ ...valid(t), name: "🎤".repeat(100) }))).status, 200);
  assert.equal((await rowsAbout(t))[0]!.name, "🎤".repeat(100));
  assert.equal((await fn.handle(enquiry({ ...valid(token()), name: "🎤".repeat(101) }))).status, 422);
});

for (const [what, title] of [
  ["an RFC 2047 encoded word", "=?utf-8?Q?Hi=0D=0ABcc:_victim@example.com?="],
  ["a base64 encoded word", "=?UTF-8?B?SGkNCkJjYzogdmljdGltQGV4YW1wbGUuY29t?="],
  ["an unclosed encoded word", "EP =?utf-8?q?half"],
] as const) {
  test(`a project title holding ${what} reaches the Subject as typed, on one line, with no extra recipient`, async () => {
    await using fn = setup();
    const t = token();
    assert.equal((await fn.handle(enquiry({ ...valid(t), projectTitle: `${title} ${t}` }))).status, 200);
    const all = (await (await fetch(`${CATCHER_API}/messages`)).json()) as (Caught & { envelope: { to: string[] }; headers: Record<string, string> })[];
    const studio = all.find((m) => m.text.includes(t) && m.to === "studio@studio.example")!;
    assert.ok(studio, "the studio mail arrived");
    assert.equal(studio.subject.replaceAll("\u2060", ""), `New enquiry: ${title} ${t}`);
    assert.doesNotMatch(studio.subject, /[\r\n]/);
    assert.deepEqual(studio.envelope.to, ["studio@studio.example"]);
    assert.equal(studio.headers.bcc, undefined);
  });
}

test("the confirmation carries only a short, link-free name and title", async () => {
  await using fn = setup();
  const t = token();
  const email = `links-${t.toLowerCase()}@example.com`;
  await fn.handle(enquiry({ name: `Visit https://spam.example/${t}`, email, projectTitle: `Cheap pills at spam.example ${t}`, projectDetails: "x" }));
  const [confirmation] = (await (await fetch(`${CATCHER_API}/messages`)).json() as Caught[]).filter((m) => m.to === email);
  assert.ok(confirmation);
  assert.doesNotMatch(confirmation.text + confirmation.html, /spam\.example|https?:/);
  assert.match(confirmation.text, /Hi there,/);
  assert.match(confirmation.text, /about "your project"/);
  const long = `long-${t.toLowerCase()}@example.com`;
  await fn.handle(enquiry({ name: "A".repeat(90), email: long, projectTitle: `${"T".repeat(150)} ${t}`, projectDetails: "" }));
  const [shortened] = (await (await fetch(`${CATCHER_API}/messages`)).json() as Caught[]).filter((m) => m.to === long);
  assert.match(shortened!.text, new RegExp(`Hi ${"A".repeat(39)}…,`));
});

test("a confirmation goes to one address at most once an hour; every enquiry is still stored and told to the studio", async () => {
  await using fn = setup();
  const t = token();
  const email = `once-${t.toLowerCase()}@example.com`;
  for (let i = 0; i < 3; i++) assert.equal((await fn.handle(enquiry({ ...valid(`${t}-${i}`), email }))).status, 200);
  const mails = (await (await fetch(`${CATCHER_API}/messages`)).json()) as Caught[];
  assert.equal(mails.filter((m) => m.to === email).length, 1);
  assert.equal(mails.filter((m) => m.to === "studio@studio.example" && m.text.includes(t)).length, 3);
  assert.equal((await rowsAbout(t)).length, 3);
});

test("a body that never arrives (Content-Length larger than what is sent) is answered 408 within the deadline", async () => {
  await using fn = setup({ BODY_TIMEOUT_MS: "500" });
  await using server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, fn.handle);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  const started = Date.now();
  await conn.write(new TextEncoder().encode(
    `POST /functions/v1/send-contact-email HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n` +
      `${ENQUIRY_HEADERS.fillMs}: 5000\r\n\r\n{"name":`,
  ));
  const buffer = new Uint8Array(4096);
  const read = await conn.read(buffer);
  conn.close();
  assert.match(new TextDecoder().decode(buffer.subarray(0, read ?? 0)), /^HTTP\/1\.1 408/);
  assert.ok(Date.now() - started < 3000, "answered at the deadline, not when the client gives up");
});

test("a flood from many senders past the global rate: the real visitor's enquiry is stored and told to the studio, and mail stays bounded", async () => {
  const t = token();
  await db`delete from contact_rate_limits where bucket = 'global'`;
  await using fn = setup({ RATE_LIMIT_GLOBAL: "5", RATE_LIMIT_PER_CLIENT: "3" });
  const mailsBefore = ((await (await fetch(`${CATCHER_API}/messages`)).json()) as Caught[]).length;
  // 40 senders, 3 enquiries each (their own limit), all to the same victim address.
  const flood = [];
  for (let sender = 0; sender < 40; sender++) {
    for (let i = 0; i < 3; i++) {
      flood.push(fn.handle(enquiry({ ...valid(`${t}-flood-${sender}-${i}`), email: `victim-${t.toLowerCase()}@example.com` }, { "cf-connecting-ip": `198.18.${sender}.1` })));
    }
  }
  const statuses = (await Promise.all(flood)).map((r) => r.status);
  assert.deepEqual([...new Set(statuses)], [200], "each sender within their own limit is stored");
  const real = await fn.handle(enquiry({ ...valid(`${t}-real`), email: `real-${t.toLowerCase()}@example.com` }, { "cf-connecting-ip": "192.0.2.250" }));
  assert.equal(real.status, 200, "the real visitor is not refused");
  assert.equal((await rowsAbout(`${t}-real`)).length, 1);
  assert.equal((await rowsAbout(`${t}-flood`)).length, 120);
  assert.ok(fn.lines.some((l) => l.held === true && l.level === "warn"), "holds are logged");

  const report = await (await callRedeliver(fn)).json();
  assert.ok(report.digested >= 116, JSON.stringify(report));
  const mails = ((await (await fetch(`${CATCHER_API}/messages`)).json()) as Caught[]).slice(mailsBefore);
  const digest = mails.find((m) => /held during a busy period/.test(m.subject))!;
  assert.ok(digest, "the studio gets one digest");
  assert.match(digest.text, new RegExp(`${t}-real`), "the real enquiry is in it");
  const about = mails.filter((m) => m.text.includes(t) || m.subject.includes(t));
  assert.ok(about.length <= 5 + 1 + 1, `mails stay bounded: ${about.length} for 121 enquiries`);
  assert.ok(about.filter((m) => m.to.startsWith("victim-")).length <= 1, "the victim address gets at most one confirmation");
  const [traffic] = await db`select * from private.enquiry_traffic`;
  assert.ok(Number(traffic!.held_last_day) >= 116);
  await db`delete from contact_rate_limits where bucket = 'global'`;
});
