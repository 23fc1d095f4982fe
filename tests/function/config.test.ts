// The function's configuration and its health route: on the hosted platform each class of mistake an
// owner can make is named (logged at cold start, reported by /health) while enquiries are still stored
// wherever that can work; real-looking values pass.
import assert from "node:assert/strict";
import fc from "fast-check";
import postgres from "postgres";
import { loadConfig } from "../../supabase/functions/send-contact-email/config.ts";
import { REDELIVERY_SECRET_HEADER } from "../../supabase/functions/send-contact-email/handler.ts";
import {
  callRedeliver,
  CLOSED_PORT,
  DATABASE_URL,
  enquiry,
  STACK_FUNCTION_ENV,
  rowsAbout,
  setup,
  test,
  token,
  URL_,
  valid,
} from "./support.ts";

/** What a real deployment sets, plus what the hosted platform sets itself. */
const DEPLOYED: Record<string, string> = {
  SB_REGION: "eu-central-1",
  SUPABASE_DB_URL: "postgresql://postgres:pw@db.abcdefghijklmnopqrst.supabase.co:5432/postgres",
  DB_POOLER_URL: "postgresql://postgres.abcdefghijklmnopqrst:pw@aws-0-eu-central-1.pooler.supabase.com:6543/postgres",
  MAIL_TRANSPORT: "resend",
  RESEND_API_KEY: "re_8fK2mQ9xL4vB7nR1tY5wZ3cD",
  RESEND_WEBHOOK_SECRET: `whsec_${btoa("a-real-looking-signing-key-0123456789")}`,
  MAIL_FROM: "Lakeshore Sound Studio <website@lakeshoresound.ca>",
  STUDIO_INBOX: "bookings@lakeshoresound.ca",
  ALLOWED_ORIGINS: "https://lakeshoresound.ca,https://www.lakeshoresound.ca",
  CLIENT_IP_HEADER: "x-forwarded-for",
  IP_HASH_SALT: "S4lt-9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c",
  REDELIVERY_SECRET: "R3d-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d",
  ENQUIRY_RELAY_SECRET: "q8Zt3vN1xW5yL0pR7sK2mB9cD4fG6hJ1",
};
const problemsOf = (env: Record<string, string | undefined>) => {
  const merged = Object.fromEntries(Object.entries({ ...DEPLOYED, ...env }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return loadConfig(new Map(Object.entries(merged))).problems.map((p) => `${p.variable} ${p.problem}`);
};

test("the hosted platform is production (SB_REGION); a real-looking configuration has no problem", () => {
  assert.equal(loadConfig(new Map(Object.entries(DEPLOYED))).config.production, true);
  assert.deepEqual(problemsOf({}), []);
  assert.deepEqual(loadConfig(new Map(Object.entries(DEPLOYED))).warnings, []);
  assert.deepEqual(
    loadConfig(new Map(Object.entries(STACK_FUNCTION_ENV))).warnings,
    [],
    "the local stack sends from website@, not the inbox",
  );
  assert.equal(loadConfig(new Map(Object.entries(STACK_FUNCTION_ENV))).config.production, false);
  assert.deepEqual(loadConfig(new Map(Object.entries(STACK_FUNCTION_ENV))).problems, [], "the local stack's values are fine locally");
});

const refused: [string, Record<string, string | undefined>, RegExp][] = [
  ["a missing database URL", { SUPABASE_DB_URL: undefined, DB_POOLER_URL: undefined }, /^SUPABASE_DB_URL is required/],
  ["a missing Resend key", { RESEND_API_KEY: undefined }, /^RESEND_API_KEY is required with MAIL_TRANSPORT=resend/],
  [
    "no Resend key and no transport named (the old fallback to SMTP on 127.0.0.1)",
    { RESEND_API_KEY: undefined, MAIL_TRANSPORT: undefined },
    /^RESEND_API_KEY is required/,
  ],
  ["the .env.example Resend key", { RESEND_API_KEY: "re_xxxxxxxx" }, /^RESEND_API_KEY is not a Resend API key/],
  [
    "a missing webhook secret",
    { RESEND_WEBHOOK_SECRET: undefined },
    /^RESEND_WEBHOOK_SECRET is required: without it, mail Resend accepts and then bounces is never seen/,
  ],
  [
    "SMTP to this machine",
    { MAIL_TRANSPORT: "smtp", SMTP_HOST: "127.0.0.1", SMTP_PORT: "54325" },
    /^MAIL_TRANSPORT smtp to this machine cannot work on the hosted platform/,
  ],
  ["SMTP on a blocked port", { MAIL_TRANSPORT: "smtp", SMTP_HOST: "smtp.mailhost.ca", SMTP_PORT: "587" }, /^SMTP_PORT 587 is blocked/],
  ["an unknown transport", { MAIL_TRANSPORT: "pigeon" }, /^MAIL_TRANSPORT must be "resend" or "smtp"/],
  ["a sender at an example domain", { MAIL_FROM: "Studio <bookings@studio.example>" }, /^MAIL_FROM is at a documentation domain/],
  ["a missing inbox", { STUDIO_INBOX: undefined }, /^STUDIO_INBOX is required/],
  ["an inbox at an example domain", { STUDIO_INBOX: "bookings@example.com" }, /^STUDIO_INBOX is at a documentation domain/],
  ["a localhost origin", { ALLOWED_ORIGINS: "http://localhost:3000" }, /^ALLOWED_ORIGINS http:\/\/localhost:3000 points at this machine/],
  [
    "an example origin",
    { ALLOWED_ORIGINS: "https://studio.example" },
    /^ALLOWED_ORIGINS https:\/\/studio.example points at this machine or a documentation domain/,
  ],
  [
    "an origin with a path",
    { ALLOWED_ORIGINS: "https://lakeshoresound.ca/book" },
    /^ALLOWED_ORIGINS "https:\/\/lakeshoresound.ca\/book" is not an origin/,
  ],
  ["the public default salt", { IP_HASH_SALT: undefined }, /^IP_HASH_SALT is required: stored client hashes could be reversed/],
  ["the placeholder salt", { IP_HASH_SALT: "change-me-to-a-long-random-string" }, /^IP_HASH_SALT is the placeholder/],
  [
    "a missing redelivery secret",
    { REDELIVERY_SECRET: undefined },
    /^REDELIVERY_SECRET is required: the scheduler cannot call \/redeliver/,
  ],
  [
    "a short redelivery secret",
    { REDELIVERY_SECRET: "change-me-too".replace("change-me", "secret") },
    /^REDELIVERY_SECRET is 10 characters long; use at least 32/,
  ],
  ["a missing relay secret", { ENQUIRY_RELAY_SECRET: undefined }, /^ENQUIRY_RELAY_SECRET is required: set the same value as the site's/],
  [
    "a zero window (a division by zero before)",
    { RATE_LIMIT_GLOBAL_WINDOW_SECONDS: "0" },
    /^RATE_LIMIT_GLOBAL_WINDOW_SECONDS must be a whole number from 1 to 86400, got "0"; using 600/,
  ],
  ["a limit that is not a number", { RATE_LIMIT_PER_CLIENT: "five" }, /^RATE_LIMIT_PER_CLIENT must be a whole number/],
  [
    "a redelivery budget over what the scheduler waits",
    { REDELIVERY_BUDGET_MS: "90000" },
    /^REDELIVERY_BUDGET_MS must be a whole number from 12000 to 50000/,
  ],
  [
    "a redelivery budget too short for the mail timeout (no retry would ever start)",
    { MAIL_TIMEOUT_MS: "20000", REDELIVERY_BUDGET_MS: "21000" },
    /^REDELIVERY_BUDGET_MS must be a whole number from 22000 to 50000/,
  ],
  ["a sender that is not an address", { MAIL_FROM: "Lakeshore Sound" }, /^MAIL_FROM must be an address or "Name <address>"/],
  ["an inbox without a domain", { STUDIO_INBOX: "owner@lakeshoresound" }, /^STUDIO_INBOX must be one e-mail address/],
  ["an inbox without an @", { STUDIO_INBOX: "owner.lakeshoresound.ca" }, /^STUDIO_INBOX must be one e-mail address/],
  ["two inboxes in one", { STUDIO_INBOX: "a@lakeshoresound.ca, b@lakeshoresound.ca" }, /^STUDIO_INBOX must be one e-mail address/],
  ["a header name that is not one", { CLIENT_IP_HEADER: "x forwarded for" }, /^CLIENT_IP_HEADER "x forwarded for" is not a header name/],
];
for (const [what, env, message] of refused) {
  test(`on the hosted platform, ${what} is named: ${message.source.split(" ")[0]!.replace("^", "")}`, () => {
    const found = problemsOf(env);
    assert.ok(
      found.some((p) => message.test(p)),
      `${JSON.stringify(found)} has no ${message}`,
    );
  });
}

test("a setting under a misspelled name is named (its value would be ignored); the platform's own variables and this machine's are not", () => {
  for (const [name, meant] of [
    ["STUDIO_INBOXX", "STUDIO_INBOX"],
    ["resend_api_key", "RESEND_API_KEY"],
    ["RESEND_APIKEY", "RESEND_API_KEY"],
    ["CLIENT_IP_HEADERS", "CLIENT_IP_HEADER"],
    ["RATE_LIMIT_PER_CLEINT", "RATE_LIMIT_PER_CLIENT"],
    ["MAIL_TIMEOUT", "MAIL_TIMEOUT_MS"],
    ["MAIL_TIMEOUTS_MS", "MAIL_TIMEOUT_MS"],
  ]) {
    assert.ok(
      problemsOf({ [name!]: "x" }).includes(`${name} is not a setting: did you mean ${meant}? (its value is ignored)`),
      `${name}: ${JSON.stringify(problemsOf({ [name!]: "x" }))}`,
    );
  }
  // What the hosted platform sets besides (supabase.com/docs/guides/functions/secrets, "Default secrets").
  const platform = {
    SUPABASE_URL: "https://abcdefghijklmnopqrst.supabase.co",
    SUPABASE_ANON_KEY: "anon",
    SUPABASE_SERVICE_ROLE_KEY: "service",
    SUPABASE_PUBLISHABLE_KEYS: "{}",
    SUPABASE_SECRET_KEYS: "{}",
    SUPABASE_JWKS: "{}",
    SB_EXECUTION_ID: "id",
    DENO_REGION: "eu-central-1",
  };
  assert.deepEqual(problemsOf({ ...Deno.env.toObject(), ...platform, ...DEPLOYED }), []);
  // SMTP's names are read (and compared) only when SMTP is the transport.
  const smtp = { MAIL_TRANSPORT: "smtp", SMTP_HOST: "smtp.mailhost.ca", SMTP_PORT: "465" };
  assert.ok(
    problemsOf({ ...smtp, SMTP_PASSWORD: "x" }).includes("SMTP_PASSWORD is not a setting: did you mean SMTP_PASS? (its value is ignored)"),
  );
  assert.ok(problemsOf({ ...smtp, SMTP_SECURE: "yes" }).some((p) => p.startsWith("SMTP_SECURE must be true or false")));
  assert.deepEqual(problemsOf({ ...smtp, SMTP_SECURE: "TRUE" }), []);
});

test("with a sender or an inbox that is not an address, no mail is attempted (none dies): it waits for the fix", () => {
  for (const env of [{ MAIL_FROM: "Lakeshore Sound" }, { STUDIO_INBOX: "owner@lakeshoresound" }]) {
    const { config } = loadConfig(new Map(Object.entries({ ...DEPLOYED, ...env })));
    assert.equal(config.mail.transport, "none", JSON.stringify(env));
  }
});

test("any mail timeout and redelivery budget: either a problem is named, or a redelivery run can start a send", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1_000, max: 30_000 }),
      fc.option(fc.integer({ min: 1_000, max: 60_000 }), { nil: undefined }),
      fc.integer({ min: 1, max: 1000 }),
      (timeout, budget, rate) => {
        const env = {
          MAIL_TIMEOUT_MS: String(timeout),
          REDELIVERY_BUDGET_MS: budget === undefined ? undefined : String(budget),
          MAIL_RATE_PER_SECOND: String(rate),
        };
        const found = problemsOf(env);
        const { config } = loadConfig(
          new Map(Object.entries({ ...DEPLOYED, ...env }).filter((entry): entry is [string, string] => entry[1] !== undefined)),
        );
        // What redeliver() needs before its first send (delivery.ts): the pause and a whole mail timeout.
        const fits = config.redeliveryBudgetMs >= 1000 / config.mailRatePerSecond + config.mailTimeoutMs;
        assert.ok(fits, `${JSON.stringify(env)} gives a budget of ${config.redeliveryBudgetMs}`);
        if (budget !== undefined && budget < timeout + 2_000) assert.ok(found.some((p) => p.startsWith("REDELIVERY_BUDGET_MS ")));
        if (budget === undefined) assert.deepEqual(found, []);
      },
    ),
    { numRuns: 300 },
  );
});

test("the placeholders of supabase/functions/.env.example and .env.example are each named once", async () => {
  const example = await Deno.readTextFile(new URL("../../.env.example", import.meta.url));
  const fromExample = Object.fromEntries(
    example
      .split("\n")
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  const found = problemsOf({ ...fromExample, SUPABASE_DB_URL: DEPLOYED.SUPABASE_DB_URL });
  for (const variable of [
    "RESEND_API_KEY",
    "MAIL_FROM",
    "STUDIO_INBOX",
    "ALLOWED_ORIGINS",
    "IP_HASH_SALT",
    "REDELIVERY_SECRET",
    "ENQUIRY_RELAY_SECRET",
    "RESEND_WEBHOOK_SECRET",
  ]) {
    assert.ok(
      found.some((p) => p.startsWith(`${variable} `)),
      `${variable}: ${JSON.stringify(found)}`,
    );
  }
});

test("the pooled connection (DB_POOLER_URL) is the documented path, with one connection per isolate; the direct one the fallback, with three", () => {
  const pooled = loadConfig(new Map(Object.entries(DEPLOYED))).config;
  assert.equal(pooled.databaseUrl, DEPLOYED.DB_POOLER_URL);
  assert.equal(pooled.databaseConnection, "pooler");
  assert.equal(pooled.dbPoolMax, 1);
  const direct = loadConfig(new Map(Object.entries({ ...DEPLOYED, DB_POOLER_URL: "" }))).config;
  assert.equal(direct.databaseUrl, DEPLOYED.SUPABASE_DB_URL);
  assert.equal(direct.databaseConnection, "direct");
  assert.equal(direct.dbPoolMax, 3);
});

test("with problems, enquiries are still stored where that can work, and /health says error to anyone and names each problem to the owner", async () => {
  // Production, with the mail and the relay misconfigured; the database is fine.
  await using fn = setup({
    SB_REGION: "local-test",
    MAIL_TRANSPORT: "resend",
    RESEND_API_KEY: "",
    RESEND_WEBHOOK_SECRET: "",
    ENQUIRY_RELAY_SECRET: "short",
  });
  assert.ok(fn.problems.length >= 3);
  const t = token();
  assert.equal((await fn.handle(enquiry(valid(t)))).status, 200, "an enquiry is never refused for a setting the owner can fix later");
  assert.equal((await rowsAbout(t)).length, 1);

  const anonymous = await fn.handle(new Request(`${URL_}/health`));
  assert.equal(anonymous.status, 503);
  assert.deepEqual(await anonymous.json(), { status: "error" });
  const owner = await fn.handle(
    new Request(`${URL_}/health`, { headers: { [REDELIVERY_SECRET_HEADER]: STACK_FUNCTION_ENV.REDELIVERY_SECRET! } }),
  );
  const details = await owner.json();
  assert.equal(details.status, "error");
  assert.equal(details.production, true);
  const named = details.problems.map((p: { variable: string }) => p.variable);
  for (const variable of ["RESEND_API_KEY", "ENQUIRY_RELAY_SECRET", "RESEND_WEBHOOK_SECRET"])
    assert.ok(named.includes(variable), `${variable} in ${named}`);
  assert.equal(details.mail.configured, false);
  assert.equal(details.database.reachable, true);
});

test("/health: ok to anyone on a healthy function; the owner's details name the database, mail, last run, counts and the address headers that arrived", async () => {
  await using fn = setup();
  assert.deepEqual(fn.problems, []);
  const anonymous = await fn.handle(new Request(`${URL_}/health`));
  assert.equal(anonymous.status, 200);
  assert.deepEqual(await anonymous.json(), { status: "ok" });
  await callRedeliver(fn);
  const forged = "198.51.100.77";
  const owner = await fn.handle(
    new Request(`${URL_}/health`, {
      headers: {
        [REDELIVERY_SECRET_HEADER]: STACK_FUNCTION_ENV.REDELIVERY_SECRET!,
        "x-forwarded-for": `${forged}, 10.1.2.3`,
        "cf-connecting-ip": "203.0.113.5",
      },
    }),
  );
  assert.equal(owner.status, 200);
  const details = await owner.json();
  assert.equal(details.database.reachable, true);
  assert.equal(details.mail.transport, "smtp");
  assert.ok(details.redelivery.secondsSinceLastRun !== null && details.redelivery.secondsSinceLastRun < 60);
  assert.equal(details.redelivery.scheduled, null, "pg_cron is not installed here");
  assert.deepEqual(Object.keys(details.deliveries).sort(), ["dead", "held", "waiting"]);
  const hash = async (text: string) =>
    Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))), (b) =>
      b.toString(16).padStart(2, "0"),
    )
      .join("")
      .slice(0, 12);
  assert.deepEqual(details.clientAddress.arrived["x-forwarded-for"], [await hash(forged), await hash("10.1.2.3")]);
  assert.deepEqual(details.clientAddress.arrived["cf-connecting-ip"], [await hash("203.0.113.5")]);
  assert.equal(details.clientAddress.configuredArrived, true);
  assert.doesNotMatch(JSON.stringify(details), /198\.51\.100\.77|203\.0\.113\.5/, "values are never shown, only their hashes");
});

test("/health tells a timeout from an unreachable database: a statement past its limit is reachable and timed out, a closed port unreachable; both 503 and red to anyone", async () => {
  const owner = { headers: { [REDELIVERY_SECRET_HEADER]: STACK_FUNCTION_ENV.REDELIVERY_SECRET! } };
  // Statements on this function's connections end after 300 ms (a startup parameter in the URL).
  const slow = new URL(DATABASE_URL);
  slow.searchParams.set("statement_timeout", "300");
  await using fn = setup({ SUPABASE_DB_URL: slow.href });
  const before = await (await fn.handle(new Request(`${URL_}/health`, owner))).json();
  assert.deepEqual([before.database.reachable, before.database.timedOut], [true, false]);

  // Another connection holds what /health reads: its statement waits past the limit.
  const holder = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    await holder.begin(async (tx) => {
      await tx`lock table private.redelivery_state in access exclusive mode`;
      const answer = await fn.handle(new Request(`${URL_}/health`, owner));
      assert.equal(answer.status, 503);
      const { database } = await answer.json();
      assert.deepEqual([database.reachable, database.timedOut], [true, true]);
      assert.match(database.error, /statement timeout/);
    });
  } finally {
    await holder.end();
  }

  await using down = setup({ SUPABASE_DB_URL: `postgres://postgres:postgres@127.0.0.1:${CLOSED_PORT}/postgres` });
  const unreachable = await down.handle(new Request(`${URL_}/health`, owner));
  assert.equal(unreachable.status, 503);
  const { database } = await unreachable.json();
  assert.equal(database.reachable, false);
  assert.equal(database.timedOut, undefined);
  assert.deepEqual(await (await down.handle(new Request(`${URL_}/health`))).json(), { status: "error" });
});

test("MAIL_FROM the same mailbox as STUDIO_INBOX (any case, a +tag, a display name) is a deliverability warning, not a problem: /health stays ok and names it to the owner", async () => {
  for (const mailFrom of [
    "Lakeshore Sound Studio <bookings@lakeshoresound.ca>",
    "Bookings+web@LakeshoreSound.ca",
    "bookings@lakeshoresound.ca",
  ]) {
    const { problems, warnings } = loadConfig(new Map(Object.entries({ ...DEPLOYED, MAIL_FROM: mailFrom })));
    assert.deepEqual(problems, [], mailFrom);
    assert.equal(warnings.length, 1, mailFrom);
    assert.match(
      `${warnings[0]!.variable} ${warnings[0]!.problem}`,
      /^MAIL_FROM is the studio's inbox .*looks forged to spam filters .*website@lakeshoresound\.ca/,
    );
  }
  // Unset, locally: the default sender is website@, never the default inbox.
  const { config } = loadConfig(new Map(Object.entries({ ...STACK_FUNCTION_ENV, MAIL_FROM: "" })));
  assert.match(config.mailFrom, /<website@/);

  await using fn = setup({ MAIL_FROM: "Studio <studio@studio.test>" });
  assert.deepEqual(fn.problems, []);
  assert.equal(fn.warnings.length, 1);
  assert.deepEqual(await (await fn.handle(new Request(`${URL_}/health`))).json(), { status: "ok" });
  const details = await (
    await fn.handle(new Request(`${URL_}/health`, { headers: { [REDELIVERY_SECRET_HEADER]: STACK_FUNCTION_ENV.REDELIVERY_SECRET! } }))
  ).json();
  assert.equal(details.status, "ok");
  assert.deepEqual(details.problems, []);
  assert.deepEqual(
    details.warnings.map((w: { variable: string }) => w.variable),
    ["MAIL_FROM"],
  );
  assert.equal(details.mail.from, "Studio <studio@studio.test>");
});

test("without a database URL, enquiries get 503 and /health says error", async () => {
  await using fn = setup({ SUPABASE_DB_URL: "" });
  assert.ok(fn.problems.some((p) => p.variable === "SUPABASE_DB_URL"));
  assert.equal((await fn.handle(enquiry(valid(token())))).status, 503);
  assert.equal((await fn.handle(new Request(`${URL_}/health`))).status, 503);
  void DATABASE_URL;
});

test("in production, an enquiry without the configured client-address header turns /health to error and is logged once", async () => {
  await using fn = setup({
    SB_REGION: "local-test",
    CLIENT_IP_HEADER: "x-real-ip",
    RESEND_WEBHOOK_SECRET: STACK_FUNCTION_ENV.RESEND_WEBHOOK_SECRET!,
  });
  const problems = fn.problems.map((p) => p.variable);
  const request = enquiry(valid(token()));
  assert.equal((await fn.handle(request)).status, 200);
  assert.equal(fn.lines.filter((l) => l.event === "client-address-header-missing" && l.level === "error").length, 1);
  const owner = await (
    await fn.handle(new Request(`${URL_}/health`, { headers: { [REDELIVERY_SECRET_HEADER]: STACK_FUNCTION_ENV.REDELIVERY_SECRET! } }))
  ).json();
  assert.equal(owner.status, "error");
  assert.equal(owner.clientAddress.missingOnEnquiries, true);
  void problems;
});
