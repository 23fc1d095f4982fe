// Behaviour of send-contact-email against a real PostgreSQL (scripts/lib/postgres.mjs) and a real SMTP catcher, both
// started by scripts/test-function.mjs (which passes their addresses in the environment).
import assert from "node:assert/strict";
import postgres from "postgres";
import { ENQUIRY_HEADERS, MAX_BODY_BYTES } from "../_shared/contact-message.ts";
import { loadConfig } from "./config.ts";
import { createHandler, REDELIVERY_SECRET_HEADER } from "./handler.ts";
import { createMailer } from "./mailer.ts";
import { createStore } from "./store.ts";

const DATABASE_URL = Deno.env.get("TEST_DATABASE_URL")!;
const CATCHER_API = Deno.env.get("TEST_CATCHER_API")!;
const SMTP_PORT = Deno.env.get("TEST_SMTP_PORT")!;
const CLOSED_PORT = Deno.env.get("TEST_CLOSED_PORT")!;
const ORIGIN = "https://studio.example";
const URL_ = "http://localhost/functions/v1/send-contact-email";

const db = postgres(DATABASE_URL, { max: 2, onnotice: () => {} });

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
  const lines: Record<string, unknown>[] = [];
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
const valid = (t: string) => ({ name: "Ada Lovelace", email: "ada@example.com", projectTitle: `Debut EP ${t}`, projectDetails: `Four songs ${t}` });

Deno.test("stores one row and mails the studio and the visitor with the entered texts", async () => {
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
  assert.equal(studio.replyTo, "ada@example.com");
  assert.equal(studio.subject, `New enquiry: Debut EP ${t}`);
  assert.match(studio.text, new RegExp(`Four songs ${t}`));
  assert.match(studio.html, /Ada Lovelace/);
  const confirmation = mails.find((m) => m.to === "ada@example.com")!;
  assert.match(confirmation.text, /Hi Ada Lovelace,/);
  assert.match(confirmation.text, /We'll get back to you within 24 hours\./);
  assert.doesNotMatch(confirmation.text, /Four songs/, "free-text details never go to the visitor's address");
});

Deno.test("answers over real HTTP with Deno.serve, as supabase-js calls it", async () => {
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
  Deno.test(`refuses ${what} with ${status}, storing and sending nothing`, async () => {
    await using fn = setup();
    const t = token();
    const response = await fn.handle(request(t));
    assert.equal(response.status, status);
    const body = await response.json();
    assert.ok(["invalid", "error"].includes(body.status), JSON.stringify(body));
    assert.equal(response.headers.get("access-control-allow-methods"), "POST, OPTIONS", "CORS headers on errors too");
    assert.equal((await rowsAbout(t)).length, 0);
    assert.equal((await mailsAbout(t)).length, 0);
  });
}

Deno.test("names each invalid field in the answer", async () => {
  await using fn = setup();
  const response = await fn.handle(enquiry({ name: "", email: "nope", projectTitle: "" }));
  const body = await response.json();
  assert.equal(body.status, "invalid");
  assert.deepEqual(Object.keys(body.fieldErrors).sort(), ["email", "name", "projectTitle"]);
  assert.equal(body.fieldErrors.name, "Name is required.");
});

Deno.test("ignores unknown fields", async () => {
  await using fn = setup();
  const t = token();
  const response = await fn.handle(enquiry({ ...valid(t), role: "admin", id: "x" }));
  assert.equal(response.status, 200);
  assert.equal((await rowsAbout(t)).length, 1);
});

Deno.test("a filled honeypot gets a success but nothing is stored or sent", async () => {
  await using fn = setup();
  const t = token();
  const response = await fn.handle(enquiry(valid(t), { [ENQUIRY_HEADERS.trap]: "https://spam.example" }));
  assert.equal(response.status, 200);
  assert.equal((await response.json()).status, "ok");
  assert.equal((await rowsAbout(t)).length, 0);
  assert.equal((await mailsAbout(t)).length, 0);
});

Deno.test("<script> and HTML from the visitor arrive escaped in the HTML mails", async () => {
  await using fn = setup();
  const t = token();
  const response = await fn.handle(
    enquiry({ name: `<img src=x onerror=alert(1)>`, email: "ada@example.com", projectTitle: `<b>${t}</b>`, projectDetails: `<script>alert("${t}")</script>` }),
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

Deno.test("the same idempotency key twice stores one row, sends one pair of mails and answers the same", async () => {
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

Deno.test("with SMTP down the visitor gets 2xx, the delivery stays pending, and redelivery sends it exactly once", async () => {
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

  await using up = setup();
  const redeliver = () =>
    up.handle(new Request(`${URL_}/redeliver`, { method: "POST", headers: { [REDELIVERY_SECRET_HEADER]: "redeliver-secret" } }));
  const [a, b] = await Promise.all([redeliver(), redeliver()]);
  const again = await redeliver();
  assert.deepEqual([a.status, b.status, again.status], [200, 200, 200]);
  assert.equal((await again.json()).sent, 0, "nothing left to send");
  assert.equal((await mailsAbout(t)).length, 2, "each mail exactly once");
  const [after] = await rowsAbout(t);
  assert.deepEqual(after!.deliveries.map((d: { status: string }) => d.status), ["sent", "sent"]);
});

Deno.test("redelivery refuses a caller without the secret", async () => {
  await using fn = setup();
  const response = await fn.handle(new Request(`${URL_}/redeliver`, { method: "POST", headers: { [REDELIVERY_SECRET_HEADER]: "guess" } }));
  assert.equal(response.status, 401);
});

Deno.test("with the database down the answer is 503 and nothing is mailed", async () => {
  await using fn = setup({ SUPABASE_DB_URL: `postgres://postgres@127.0.0.1:${CLOSED_PORT}/postgres` });
  const t = token();
  const response = await fn.handle(enquiry(valid(t)));
  assert.equal(response.status, 503);
  assert.deepEqual(await response.json(), { status: "error", message: "We could not save your enquiry. Please try again in a moment." });
  assert.equal(response.headers.get("access-control-allow-origin"), ORIGIN);
  assert.equal((await mailsAbout(t)).length, 0);
});

Deno.test("returns 429 with Retry-After after 5 enquiries from one client in the window", async () => {
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

Deno.test("a burst across a window boundary is still limited (sliding window)", async () => {
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

Deno.test("a spoofed X-Forwarded-For does not escape the per-client limit", async () => {
  await using fn = setup({ RATE_LIMIT_PER_CLIENT: "1" });
  const ip = `192.0.2.${(seq % 250) + 1}`;
  const t = token();
  assert.equal((await fn.handle(enquiry(valid(`${t}-a`), { "cf-connecting-ip": ip, "x-forwarded-for": "1.1.1.1" }))).status, 200);
  assert.equal((await fn.handle(enquiry(valid(`${t}-b`), { "cf-connecting-ip": ip, "x-forwarded-for": "8.8.8.8" }))).status, 429);
});

Deno.test("the global cap applies across clients", async () => {
  await using fn = setup({ RATE_LIMIT_GLOBAL: "0" });
  assert.equal((await fn.handle(enquiry(valid(token())))).status, 429);
});

Deno.test("answers the CORS preflight for the site's origin only", async () => {
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

Deno.test("as role anon, reading or writing enquiries is refused", async () => {
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

Deno.test("answers before the mails are sent, and sends them afterwards", async () => {
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

Deno.test("logs one structured line per request without personal data", async () => {
  await using fn = setup();
  const t = token();
  await fn.handle(enquiry(valid(t)));
  assert.equal(fn.lines.length, 1);
  const line = JSON.stringify(fn.lines[0]);
  assert.match(line, /"status":200/);
  assert.doesNotMatch(line, /Ada|ada@example\.com|Debut EP|203\.0\.113/);
});

Deno.test("a missing required variable stops start-up with a clear message", () => {
  assert.throws(() => loadConfig(new Map()), /SUPABASE_DB_URL is required/);
  assert.throws(() => loadConfig(new Map([["SUPABASE_DB_URL", "x"], ["MAIL_TRANSPORT", "pigeon"]])), /MAIL_TRANSPORT must be/);
});

globalThis.addEventListener("unload", () => void db.end());
