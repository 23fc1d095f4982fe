// Security and permissions: what the anon key can reach (nothing), who may call which route, the
// relay between the site and the function, and that nothing a visitor writes reaches a mail header or
// a stranger's inbox as anything but plain, visible text.
import assert from "node:assert/strict";
import fc from "fast-check";
import { check, checkFunctionAtStart, functionCheck, RELAY_ALARM } from "../../app/server/function-check.server.ts";
import { emptyMessage, normalizeEmail, RELAY_HEADERS } from "../../supabase/functions/_shared/contact-message.ts";
import { loadConfig } from "../../supabase/functions/send-contact-email/config.ts";
import { headerText, studioNotification, visitorConfirmation } from "../../supabase/functions/send-contact-email/emails.ts";
import { REDELIVERY_SECRET_HEADER } from "../../supabase/functions/send-contact-email/handler.ts";
import { notificationSenderName } from "../../supabase/functions/send-contact-email/sender.ts";
import { createWrongSecrets, WRONG_SECRET_LIMITS } from "../../supabase/functions/send-contact-email/wrong-secrets.ts";
import { signedWebhook, startResendStandIn } from "./resend-standin.ts";
import {
  allMail,
  client,
  db,
  emailOf,
  enquiry,
  mailsTo,
  ORIGIN,
  rawHeader,
  REDELIVERY_SECRET,
  RELAY_SECRET,
  rowsAbout,
  setup,
  STACK_FUNCTION_ENV,
  STUDIO_INBOX,
  test,
  token,
  until,
  URL_,
  valid,
} from "./support.ts";

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
    for (const what of [
      "private.undeliverable",
      "private.undelivered_mail",
      "private.redelivery_state",
      "private.processed_webhook_events",
      "contact_rate_limits",
    ]) {
      await assert.rejects(
        db.begin(async (tx) => {
          await tx.unsafe(`set local role ${role}`);
          await tx.unsafe(`select * from ${what} limit 1`);
        }),
        /permission denied/,
        `${role} reads ${what}`,
      );
    }
    await assert.rejects(
      db.begin(async (tx) => {
        await tx.unsafe(`set local role ${role}`);
        await tx`select private.apply_retention('1 day', '1 day', 10)`;
      }),
      /permission denied/,
    );
  }
  const [rls] =
    await db`select bool_and(relrowsecurity) as on from pg_class where relname in ('contact_enquiries', 'contact_deliveries', 'contact_rate_limits')`;
  assert.equal(rls!.on, true);
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
  // supabase-js's own list (@supabase/supabase-js/cors): what the SDK sends on a retry too.
  assert.match(ok.headers.get("access-control-allow-headers")!, /x-retry-count/);
  const other = await preflight("https://evil.example");
  assert.equal(other.headers.get("access-control-allow-origin"), null);
});

test("redelivery refuses a caller without the secret", async () => {
  await using fn = setup();
  for (const given of ["guess", "", `${RELAY_SECRET}`]) {
    const response = await fn.handle(new Request(`${URL_}/redeliver`, { method: "POST", headers: { [REDELIVERY_SECRET_HEADER]: given } }));
    assert.equal(response.status, 401);
  }
});

test("a relay secret the function does not recognise (different, or unset there) is an ordinary refusal: 401 relay-refused at info level, nothing stored, never 'too fast', no alarm", async () => {
  for (const env of [{}, { ENQUIRY_RELAY_SECRET: "" }] as Record<string, string>[]) {
    await using fn = setup(env);
    const t = token();
    const request = enquiry(valid(t), {
      [RELAY_HEADERS.secret]: "the-site-has-another-secret-0123456789",
      [RELAY_HEADERS.client]: "198.51.100.9",
    });
    request.headers.delete("x-form-fill-ms");
    const response = await fn.handle(request);
    assert.equal(response.status, 401);
    assert.equal(response.headers.get("access-control-allow-origin"), ORIGIN);
    const body = await response.json();
    assert.equal(body.code, "relay-refused");
    assert.notEqual(body.status, "too-fast");
    // Anyone can send a wrong secret: it may never page the owner (the site rings that alarm: below).
    assert.deepEqual(
      fn.lines.filter((l) => l.level === "error" || l.event === "relay-secret-mismatch"),
      [],
    );
    assert.equal(fn.lines.at(-1)!.outcome, "wrong-relay-secret");
    assert.equal((await rowsAbout(t)).length, 0);
  }
  // The same secret with stray white space, as a paste leaves it: both sides trim, it is recognised.
  await using fn = setup({ ENQUIRY_RELAY_SECRET: `  ${RELAY_SECRET}\n` });
  const t = token();
  const request = enquiry(valid(t), { [RELAY_HEADERS.secret]: RELAY_SECRET, [RELAY_HEADERS.client]: "198.51.100.10" });
  request.headers.delete("x-form-fill-ms");
  const response = await fn.handle(request);
  assert.equal(response.status, 200, `${await response.text()}\n${JSON.stringify(fn.lines.at(-1))}`);
});

test("wrong secrets are throttled per sender on the enquiry, /relay-check, /health and /redeliver: past 10 in 10 minutes a 429 with Retry-After, another sender still 401, the right secret still passes", async () => {
  await using fn = setup();
  const wrong = "a-guess-at-the-secret-0123456789abcdef";
  const [attacker, other] = [client(), client()];
  const calls: Record<string, (from: string, secret: string) => Request> = {
    enquiry: (from, secret) => enquiry(valid(token()), { "cf-connecting-ip": from, [RELAY_HEADERS.secret]: secret }),
    "relay-check": (from, secret) =>
      new Request(`${URL_}/relay-check`, { headers: { "cf-connecting-ip": from, [RELAY_HEADERS.secret]: secret } }),
    health: (from, secret) => new Request(`${URL_}/health`, { headers: { "cf-connecting-ip": from, [REDELIVERY_SECRET_HEADER]: secret } }),
    redeliver: (from, secret) =>
      new Request(`${URL_}/redeliver`, { method: "POST", headers: { "cf-connecting-ip": from, [REDELIVERY_SECRET_HEADER]: secret } }),
  };
  const right = (route: string) => (route === "enquiry" || route === "relay-check" ? RELAY_SECRET : REDELIVERY_SECRET);
  const statuses: number[] = [];
  // One budget per sender across the routes: ten wrong secrets, whichever route they try.
  for (let i = 0; i < WRONG_SECRET_LIMITS.perSender; i++)
    statuses.push((await fn.handle(Object.values(calls)[i % 4]!(attacker, wrong))).status);
  assert.deepEqual(statuses, Array(WRONG_SECRET_LIMITS.perSender).fill(401));
  for (const [route, call] of Object.entries(calls)) {
    const throttled = await fn.handle(call(attacker, wrong));
    assert.equal(throttled.status, 429, route);
    const wait = Number(throttled.headers.get("retry-after"));
    assert.ok(wait > 0 && wait <= WRONG_SECRET_LIMITS.windowSeconds, `${route}: Retry-After ${wait}`);
    assert.equal((await fn.handle(call(other, wrong))).status, 401, `${route}: another sender is not throttled`);
    // The owner's own callers are never locked out by someone sharing their address.
    assert.ok([200, 503].includes((await fn.handle(call(attacker, right(route)))).status), `${route}: the right secret passes`);
  }
  const refusals = fn.lines.filter((l) => l.outcome === "throttled" || String(l.outcome).startsWith("wrong-"));
  assert.ok(refusals.length >= WRONG_SECRET_LIMITS.perSender + 8);
  assert.ok(
    refusals.every((l) => (l.level ?? "info") === "info"),
    "refusals are logged at info",
  );
  assert.deepEqual(
    fn.lines.filter((l) => l.level === "error"),
    [],
  );
  // Counted for the owner: /health's details.
  const details = await (await fn.handle(calls.health!(other, REDELIVERY_SECRET))).json();
  assert.equal(details.relay.wrongSecrets.throttled, 4);
  assert.equal(details.relay.wrongSecrets.relay + details.relay.wrongSecrets.owner, WRONG_SECRET_LIMITS.perSender + 8);
});

test("the throttle's memory is bounded whatever addresses arrive: senders past the tracked number share one budget, and a window that ends frees its sender", () => {
  let now = 0;
  const throttle = createWrongSecrets({ config: { clientAddress: { header: "cf-connecting-ip", trustedHops: 1 } }, now: () => now });
  const from = (address: string) => new Request(URL_, { headers: { "cf-connecting-ip": address } });
  const many = WRONG_SECRET_LIMITS.trackedSenders * 5;
  const answers = Array.from({ length: many }, (_, i) =>
    throttle.refused(from(`2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`), "relay"),
  );
  assert.ok(throttle.report().trackedSenders <= WRONG_SECRET_LIMITS.trackedSenders + 1, String(throttle.report().trackedSenders));
  // The untracked ones count together: a swarm of addresses gets no more tries than one sender.
  assert.equal(answers.filter((a) => a === undefined).length, WRONG_SECRET_LIMITS.trackedSenders + WRONG_SECRET_LIMITS.perSender);
  const one = from("198.51.100.77");
  now += WRONG_SECRET_LIMITS.windowSeconds * 1000;
  for (let i = 0; i < WRONG_SECRET_LIMITS.perSender; i++) assert.equal(throttle.refused(one, "owner"), undefined);
  assert.equal(throttle.refused(one, "owner"), WRONG_SECRET_LIMITS.windowSeconds);
  now += WRONG_SECRET_LIMITS.windowSeconds * 1000;
  assert.equal(throttle.refused(one, "owner"), undefined, "a new window, a new budget");
  assert.ok(throttle.report().trackedSenders <= WRONG_SECRET_LIMITS.trackedSenders + 1);
});

test("/health tells relay state only to a caller with the owner's secret; a wrong owner's secret is refused", async () => {
  await using fn = setup();
  const health = (headers: Record<string, string>) =>
    fn.handle(new Request(`${URL_}/health`, { headers: { "cf-connecting-ip": client(), ...headers } }));
  for (const secret of [RELAY_SECRET, "another-secret-entirely-0123456789"])
    assert.deepEqual(await (await health({ [RELAY_HEADERS.secret]: secret })).json(), { status: "ok" });
  const owner = async (relay?: string) =>
    (await (await health({ [REDELIVERY_SECRET_HEADER]: REDELIVERY_SECRET, ...(relay ? { [RELAY_HEADERS.secret]: relay } : {}) })).json())
      .relay;
  assert.equal((await owner(RELAY_SECRET)).given, "recognised");
  assert.equal((await owner(` ${RELAY_SECRET} `)).given, "recognised");
  assert.equal((await owner("another-secret-entirely-0123456789")).given, "refused");
  assert.equal((await owner()).given, "not-sent");
  assert.equal((await owner()).configured, true);
  const refused = await health({ [REDELIVERY_SECRET_HEADER]: "not-the-owner-0123456789abcdef0123" });
  assert.equal(refused.status, 401);
  assert.equal((await refused.json()).relay, undefined);
  assert.deepEqual(
    fn.lines.filter((l) => l.level === "error"),
    [],
  );
});

test("the owner's alarm rings on the site's side, from the site's own check with its own secret: relay-secret-mismatch once when refused, nothing when recognised", async () => {
  await using fn = setup();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, fn.handler);
  const supabaseUrl = `http://127.0.0.1:${server.addr.port}`;
  const errors: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args.map(String).join(" "));
  try {
    const good = await check({ supabaseUrl, relaySecret: RELAY_SECRET });
    assert.deepEqual({ ...good, checkedAt: undefined }, { state: "answered", checkedAt: undefined, status: "ok", relay: "recognised" });
    // A stranger's wrong secrets, many of them, ring nothing anywhere.
    for (let i = 0; i < 15; i++)
      await (
        await fetch(`${supabaseUrl}/functions/v1/send-contact-email/relay-check`, { headers: { [RELAY_HEADERS.secret]: `guess-${i}` } })
      ).body?.cancel();
    checkFunctionAtStart({ supabaseUrl, relaySecret: RELAY_SECRET });
    await until(() => Promise.resolve(functionCheck({ supabaseUrl }).state === "answered"));
    assert.deepEqual(errors, []);
    // The site's own secret differs from the function's: its start-up check rings the alarm, once.
    const misconfigured = { supabaseUrl, relaySecret: "the-site-has-another-secret-0123456789" };
    checkFunctionAtStart(misconfigured);
    assert.ok(await until(() => Promise.resolve(errors.length > 0)));
    checkFunctionAtStart(misconfigured);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(errors, [RELAY_ALARM]);
  } finally {
    console.error = original;
    await server.shutdown();
  }
  assert.deepEqual(
    fn.lines.filter((l) => l.level === "error"),
    [],
  );
});

test("Resend's webhook acts on an event once: a repeat of a processed svix-id is answered 200 and changes nothing; only signed events are recorded, and old ids are pruned", async () => {
  await using resend = startResendStandIn("re_test_key");
  await using fn = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_key", RESEND_API_URL: resend.url });
  const secret = STACK_FUNCTION_ENV.RESEND_WEBHOOK_SECRET!;
  const t = token();
  const { id } = await (await fn.handle(enquiry(valid(t)))).json();
  const [confirmation] = await db`select provider_id from contact_deliveries where enquiry_id = ${id} and kind = 'confirmation'`;
  const bounce = {
    type: "email.bounced",
    created_at: new Date().toISOString(),
    data: { email_id: confirmation!.provider_id, to: [emailOf(t)], bounce: { message: "Mailbox does not exist", type: "Permanent" } },
  };
  const url = `${URL_}/resend-webhook`;
  const processed = (eventId: string) => db`select 1 from private.processed_webhook_events where event_id = ${eventId}`;
  // An id older than the retention, left by an event long ago: pruned when a new one arrives.
  const old = `msg_old_${t}`;
  await db`insert into private.processed_webhook_events (event_id, processed_at) values (${old}, now() - interval '8 days')`;

  const first = await signedWebhook(url, secret, bounce);
  const again = first.clone();
  const eventId = first.headers.get("svix-id")!;
  assert.deepEqual(await (await fn.handle(first)).json(), { status: "ok", handled: true });
  assert.equal((await processed(eventId)).length, 1);
  assert.equal((await processed(old)).length, 0, "pruned");
  // The owner looks into it and lets the address receive mail again; Svix then sends the same event again.
  await db`delete from private.undeliverable_addresses where address = ${emailOf(t)}`;
  const repeat = await fn.handle(again);
  assert.equal(repeat.status, 200);
  assert.deepEqual(await repeat.json(), { status: "ok", handled: false, duplicate: true });
  assert.equal(fn.lines.at(-1)!.outcome, "duplicate");
  assert.equal((await db`select 1 from private.undeliverable_addresses where address = ${emailOf(t)}`).length, 0, "the owner's fix stands");

  // Unsigned or wrongly signed: refused, and no id is kept (a stranger cannot fill the table).
  const unsigned = new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", "svix-id": `msg_forged_${t}` },
    body: "{}",
  });
  assert.equal((await fn.handle(unsigned)).status, 401);
  const otherSecret = await signedWebhook(url, `whsec_${btoa("another-secret-entirely-0123456789")}`, bounce);
  assert.equal((await fn.handle(otherSecret)).status, 401);
  assert.equal((await processed(`msg_forged_${t}`)).length + (await processed(otherSecret.headers.get("svix-id")!)).length, 0);
});

test("no public answer names a setting or carries framework text: every route, method and odd request, under every kind of configuration", async () => {
  // Every variable the function reads, as it reads them (the transports read different ones).
  const names = new Set<string>();
  for (const env of [{}, { MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_x" }, { SB_REGION: "x" }] as Record<string, string>[])
    loadConfig({ get: (key) => (names.add(key), env[key]) });
  assert.ok(names.has("RESEND_WEBHOOK_SECRET") && names.has("SUPABASE_DB_URL") && names.size > 30, String(names.size));
  const leaks = new RegExp(`${[...names].join("|")}|Error:|TypeError|at [\\w.]+ \\(|Deno|postgres|nodemailer|standardwebhooks`, "i");

  const configs: Record<string, string>[] = [
    {},
    { MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_x", RESEND_WEBHOOK_SECRET: "" },
    { MAIL_TRANSPORT: "resend", RESEND_API_KEY: "not-a-key", RESEND_WEBHOOK_SECRET: STACK_FUNCTION_ENV.RESEND_WEBHOOK_SECRET! },
    { SUPABASE_DB_URL: "", DB_POOLER_URL: "" },
    { SB_REGION: "local-test", ENQUIRY_RELAY_SECRET: "", REDELIVERY_SECRET: "", MAIL_FROM: "nope", SMTP_PORT: "25" },
  ];
  const paths = ["", "/health", "/relay-check", "/redeliver", "/resend-webhook", "/nothing", "/../health"];
  for (const env of configs) {
    await using fn = setup(env);
    for (const path of paths) {
      for (const method of ["GET", "HEAD", "POST", "PUT", "OPTIONS", "DELETE"]) {
        for (const headers of [
          {},
          { "content-type": "application/json", origin: ORIGIN, [RELAY_HEADERS.secret]: "wrong-relay-0123456789" },
          { "content-type": "text/plain; charset=latin1", origin: "https://evil.example", [REDELIVERY_SECRET_HEADER]: "wrong" },
          { "content-type": "application/json", "svix-id": "msg_x", "svix-timestamp": "1", "svix-signature": "v1,AAAA" },
        ] as Record<string, string>[]) {
          const hasBody = method !== "GET" && method !== "HEAD";
          const response = await fn.handle(new Request(`${URL_}${path}`, { method, headers, body: hasBody ? '{"name":' : undefined }));
          const text = await response.text();
          assert.doesNotMatch(text, leaks, `${JSON.stringify(env)} ${method} ${path}: ${response.status} ${text}`);
          for (const [name, value] of response.headers) assert.doesNotMatch(`${name}: ${value}`, /RESEND|SUPABASE|SECRET|SMTP/, name);
        }
      }
    }
    // The enquiry path with a valid body too (a 503 without a database, 200 otherwise).
    const answer = await (await fn.handle(enquiry(valid(token())))).text();
    assert.doesNotMatch(answer, leaks, answer);
  }
  // The webhook without Resend: the 404 any unknown path gets, word for word.
  await using fn = setup();
  const unknown = await (await fn.handle(new Request(`${URL_}/nothing`, { method: "POST" }))).text();
  assert.equal(await (await fn.handle(new Request(`${URL_}/resend-webhook`, { method: "POST", body: "{}" }))).text(), unknown);
});

test("the sender name made from the visitor's never imitates an address, in compatibility forms either (fullwidth, small)", () => {
  for (const name of ["ceo\uFF20bank.com", "PayPal \uFF1Csecurity\uFF20paypal.com\uFF1E", "support\uFE6Bpaypal.com", 'x" <a@b.c>']) {
    const sender = notificationSenderName(name, "Test Studio");
    assert.doesNotMatch(sender, /[@<>"\uFF20\uFF1C\uFF1E\uFE6B]/, sender);
  }
});

test("any Unicode in every field never reaches a header raw: no line break, control, bidi, invisible or tag character, no encoded word", () => {
  // Code points this Deno does not know yet (\p{Cn}) are kept on purpose: a newer Unicode's letters (decision 002).
  const invisible = /[\p{Cc}\p{Cf}\p{Co}\p{Noncharacter_Code_Point}\u115F\u1160\u3164\uFFA0\u180E\u2800\uFFFC\u{1D159}]/u;
  const tricky = fc.constantFrom(
    "\u202E",
    "\u2066",
    "\u200B",
    "\u00AD",
    "\u{E0041}",
    "\uFEFF",
    "=?",
    "?=",
    "=?UTF-8?Q?x=0D=0ABcc:_a@b.c?=",
    "\u3164",
    "\r\n",
    "\u0000",
  );
  const text = fc
    .array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 4 }), fc.string({ unit: "binary", maxLength: 4 }), tricky), { maxLength: 12 })
    .map((parts) => parts.join(""));
  fc.assert(
    fc.property(text, text, text, (name, projectTitle, projectDetails) => {
      const message = { ...emptyMessage(), name, email: "ada@example.com", projectTitle, projectDetails };
      const studio = studioNotification(message, { studioInbox: STUDIO_INBOX, enquiryId: crypto.randomUUID() });
      const confirmation = visitorConfirmation({ to: message.email, studioName: "Test Studio", studioInbox: STUDIO_INBOX, enquiryId: "e" });
      for (const mail of [studio, confirmation]) {
        for (const header of [mail.subject, mail.to, mail.replyTo ?? ""]) {
          // The word joiner (U+2060) is ours: it breaks an encoded word the visitor typed.
          assert.doesNotMatch(header.replaceAll("\u2060", ""), invisible, JSON.stringify(header));
          assert.doesNotMatch(header, /=\?[^?\u2060]*\?[bq]\?/i);
        }
      }
      assert.equal(headerText(projectTitle).includes("\n"), false);
      // The notification's sender name (From) is made from the visitor's name: only ever a name.
      const sender = notificationSenderName(name, "Test Studio");
      assert.doesNotMatch(sender.replaceAll("\u2060", ""), invisible, JSON.stringify(sender));
      assert.doesNotMatch(sender, /=\?[^?\u2060]*\?[bq]\?/i);
      assert.doesNotMatch(sender, /["<>@,;:()[\]\\]/, JSON.stringify(sender));
      assert.match(sender, /(^| via )Test Studio$/);
    }),
    { numRuns: 3000 },
  );
});

test("a visitor's name posing as an address, a list or an encoded word is the notification's sender name only: From is one mailbox, MAIL_FROM's, over SMTP and Resend", async () => {
  const name = '"CEO" <ceo@bank.example>, =?utf-8?Q?x?= Eve; (admin)';
  const t = token();
  {
    await using fn = setup();
    assert.equal((await fn.handle(enquiry({ ...valid(t), name }))).status, 200);
    const studio = (await allMail()).find((m) => m.text.includes(t) && m.to === STUDIO_INBOX)!;
    assert.ok(studio, "the studio mail arrived");
    const from = JSON.parse(studio.headers.from!) as { value: { address: string; name: string }[] };
    assert.deepEqual(
      from.value.map((v) => v.address),
      [/<([^>]+)>/.exec(fn.config.mailFrom)![1]],
    );
    assert.equal(from.value[0]!.name.replaceAll("\u2060", ""), "CEO ceo bank.example =?utf-8?Q?x?= Eve admin via Test Studio");
  }
  await using resend = startResendStandIn("re_test_key");
  await using fn = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_key", RESEND_API_URL: resend.url });
  assert.equal((await fn.handle(enquiry({ ...valid(`${t}r`), name }))).status, 200);
  const sent = resend.sent.find((s) => String(s.body.text).includes(`${t}r`) && (s.body.to as string[])[0] === STUDIO_INBOX)!;
  const address = /<([^>]+)>/.exec(fn.config.mailFrom)![1];
  assert.equal(
    String(sent.body.from).replaceAll("\u2060", ""),
    `"CEO ceo bank.example =?utf-8?Q?x?= Eve admin via Test Studio" <${address}>`,
  );
  const confirmation = resend.sent.find(
    (s) => (s.body.to as string[])[0] !== STUDIO_INBOX && String(s.body.subject).startsWith("We received"),
  )!;
  assert.equal(confirmation.body.from, fn.config.mailFrom.replace(/^(.*?) </, '"$1" <'));
});

for (const [what, title] of [
  ["an RFC 2047 encoded word", "=?utf-8?Q?Hi=0D=0ABcc:_victim@example.com?="],
  ["a base64 encoded word", "=?UTF-8?B?SGkNCkJjYzogdmljdGltQGV4YW1wbGUuY29t?="],
  ["an unclosed encoded word", "EP =?utf-8?q?half"],
  ["bidi overrides and isolates", "EP \u202Egnp.exe\u202C \u2066x\u2069"],
  ["zero-width and tag characters", "E\u200BP\u{E0041}\u{E0042}"],
] as const) {
  test(`a project title holding ${what} reaches the Subject on one line, visible characters only, with no extra recipient`, async () => {
    await using fn = setup();
    const t = token();
    assert.equal((await fn.handle(enquiry({ ...valid(t), projectTitle: `${title} ${t}` }))).status, 200);
    const studio = (await allMail()).find((m) => m.text.includes(t) && m.to === STUDIO_INBOX)!;
    assert.ok(studio, "the studio mail arrived");
    const visible = title.replace(/[\p{Cf}]/gu, "");
    assert.equal(studio.subject.replaceAll("\u2060", ""), `New enquiry: ${visible} ${t}`);
    assert.doesNotMatch(studio.subject, /[\r\n\u202A-\u202E\u2066-\u2069\u200B]/);
    assert.deepEqual(studio.envelope.to, [STUDIO_INBOX]);
    assert.equal(studio.headers.bcc, undefined);
  });
}

test("the confirmation repeats nothing the visitor wrote: for any name, title and details it is the same mail but its address and reference", async () => {
  // Through the function, as the mail is built from a stored enquiry: whatever was written, the
  // confirmation is the template with only its reference filled in.
  await using sender = setup({ RATE_LIMIT_PER_CLIENT: "100", CONFIRMATIONS_PER_SENDER_PER_DAY: "100" });
  const written = fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }).filter((v) => v.trim() !== "");
  let run = 0;
  await fc.assert(
    fc.asyncProperty(written, written, fc.string({ unit: "grapheme", maxLength: 80 }), async (name, projectTitle, projectDetails) => {
      const address = `any-${token().toLowerCase()}-${run++}@example.com`;
      const response = await sender.handle(enquiry({ name, email: address, projectTitle, projectDetails }));
      fc.pre(response.status === 200); // text the contract refuses never reaches a mail
      const { id } = await response.json();
      const [mail] = await mailsTo(address);
      assert.ok(mail, address);
      const expected = visitorConfirmation({ to: address, studioName: sender.config.studioName, studioInbox: STUDIO_INBOX, enquiryId: id });
      assert.equal(mail.text.trim(), expected.text.trim());
      assert.equal(mail.subject, expected.subject);
    }),
    { numRuns: 15 },
  );

  // Through the function: look-alike dots, small capitals, other scripts' numerals, plain links.
  await using fn = setup();
  const t = token();
  const email = `links-${t.toLowerCase()}@example.com`;
  const { id } = await (
    await fn.handle(
      enquiry({
        name: `Visit https://spam.example/${t} evil\uA78Fcom`,
        email,
        projectTitle: `spam \u1D05\u1D0F\u1D1B \u1D04\u1D0F\u1D0D 一八零零五五五零一九九 ${t}`,
        projectDetails: "x",
      }),
    )
  ).json();
  const [confirmation] = await mailsTo(email);
  assert.ok(confirmation);
  assert.doesNotMatch(confirmation.text + confirmation.html + confirmation.subject, /spam|https?:|evil|\u1D05|一/);
  assert.match(confirmation.text, /^Hi there,/);
  assert.match(confirmation.text, new RegExp(`reference ${id.slice(0, 8)}`));
});

test("any address is refused, or stored and sent in its ASCII form (IDN as punycode, Unicode normalised)", async () => {
  await using fn = setup();
  const domains = [
    "bücher.example",
    "ｅxample.com",
    "exa\u00ADmple.com",
    "xn--bcher-kva.example",
    "EXAMPLE.com",
    "例え.テスト",
    "ex ample.com",
    "exa_mple.com",
  ];
  const locals = ["ada", "Ada.L", "a+b", "=?x?=", "a..b", "ädä", "a\u200Bb"];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...locals), fc.constantFrom(...domains), async (local, domain) => {
      const t = token();
      const typed = `${local}-${t.toLowerCase()}@${domain}`;
      const response = await fn.handle(enquiry({ ...valid(t), email: typed }));
      const rows = await rowsAbout(t);
      if (normalizeEmail(typed) === null) {
        assert.equal(response.status, 422, typed);
        assert.equal(rows.length, 0);
        return;
      }
      assert.equal(response.status, 200, typed);
      const stored = rows[0]!.email as string;
      assert.equal(stored, normalizeEmail(typed));
      assert.match(stored, /^[\x21-\x7e]+$/, "ASCII");
      const studio = (await allMail()).find((m) => m.to === STUDIO_INBOX && m.text.includes(t))!;
      assert.equal(rawHeader(studio, "Reply-To"), stored, "the Reply-To on the wire is the ASCII address");
      assert.ok(studio.text.includes(stored));
    }),
    { numRuns: 30 },
  );
});

test("the studio sees an internationalised domain's Unicode form beside its ASCII one, with a warning when it mixes scripts", async () => {
  await using fn = setup();
  const t = token();
  // "pаypal" with a Cyrillic "а".
  await fn.handle(enquiry({ ...valid(t), email: `ada-${t.toLowerCase()}@p\u0430ypal.example` }));
  const studio = (await allMail()).find((m) => m.to === STUDIO_INBOX && m.text.includes(t))!;
  assert.match(studio.text, /Email: ada-[^ ]+@xn--pypal-4ve\.example \(ada-[^ ]+@pаypal\.example; warning: its domain mixes scripts/);
  const plain = token();
  await fn.handle(enquiry(valid(plain)));
  const ordinary = (await allMail()).find((m) => m.to === STUDIO_INBOX && m.text.includes(plain))!;
  assert.match(ordinary.text, new RegExp(`Email: ${emailOf(plain)}\\n`), "no Unicode form where the two are the same");
});

test("retention: enquiries past the period, rate rows past their window and old error texts are removed by a redelivery run", async () => {
  await using fn = setup({ RETENTION_DAYS: "30", ERROR_TEXT_RETENTION_DAYS: "7" }, { afterEnquiry: false });
  const t = token();
  assert.equal((await fn.handle(enquiry(valid(`${t}-old`)))).status, 200);
  assert.equal((await fn.handle(enquiry(valid(`${t}-new`)))).status, 200);
  await db`update contact_enquiries set created_at = now() - interval '31 days' where project_title = ${`Debut EP ${t}-old`}`;
  await db`update contact_deliveries set last_error = 'old error', sent_at = now() - interval '8 days', status = 'sent'
    where enquiry_id in (select id from contact_enquiries where project_title = ${`Debut EP ${t}-new`})`;
  await db`insert into contact_rate_limits (bucket, window_start, hits) values (${`client:${t}`}, now() - interval '3 days', 1)`;
  const report = await (
    await fn.handle(
      new Request(`${URL_}/redeliver`, { method: "POST", headers: { [REDELIVERY_SECRET_HEADER]: fn.config.redeliverySecret! } }),
    )
  ).json();
  assert.ok(report.retention.enquiries >= 1, JSON.stringify(report));
  assert.equal((await rowsAbout(`${t}-old`)).length, 0);
  assert.equal((await rowsAbout(`${t}-new`)).length, 1);
  const deliveries =
    await db`select last_error from contact_deliveries where enquiry_id in (select id from contact_enquiries where project_title = ${`Debut EP ${t}-new`})`;
  assert.ok(deliveries.every((d) => d.last_error === null));
  assert.equal((await db`select 1 from contact_rate_limits where bucket = ${`client:${t}`}`).length, 0);
});

test("logs mask addresses that a provider's error echoes", async () => {
  const { defaultLog, maskAddresses } = await import("../../supabase/functions/send-contact-email/log.ts");
  assert.equal(maskAddresses("550 5.1.1 <ada@example.com>: no such user"), "550 5.1.1 <<address>>: no such user");
  const lines: string[] = [];
  const original = console.error;
  console.error = (text: string) => void lines.push(text);
  try {
    defaultLog({ level: "error", event: "delivery-dead", reason: "RCPT TO:<victim@example.org> refused" });
  } finally {
    console.error = original;
  }
  assert.doesNotMatch(lines.join(""), /victim@/);
});

test("a request whose URL cannot be read (a malformed Host such as `[::1`) is the caller's 400 with the usual headers, never a fault: no error or warning line", async () => {
  await using fn = setup();
  await using server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, fn.handler);
  for (const host of ["[::1", "[", "[::1]x", "a b"]) {
    for (const path of ["/functions/v1/send-contact-email", "/functions/v1/send-contact-email/health", "/nothing"]) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
      await conn.write(new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${ORIGIN}\r\nConnection: close\r\n\r\n`));
      let raw = "";
      const buffer = new Uint8Array(4096);
      for (let n; (n = await conn.read(buffer)) !== null;) raw += new TextDecoder().decode(buffer.subarray(0, n));
      conn.close();
      const head = raw.slice(0, raw.indexOf("\r\n\r\n")).toLowerCase();
      assert.match(head, /^http\/1\.1 400/, `${host} ${path}: ${head}`);
      assert.match(head, /\r\ncache-control: no-store/, `${host} ${path}: ${head}`);
      assert.match(head, /\r\naccess-control-allow-methods: /, `${host} ${path}: ${head}`);
      assert.match(head, /\r\naccess-control-allow-origin: https:\/\/studio\.test/, `${host} ${path}: ${head}`);
    }
  }
  assert.ok(
    fn.lines.some((l) => l.path === "(unreadable)" && l.status === 400),
    "the malformed Host reached the handler",
  );
  assert.deepEqual(
    fn.lines.filter((l) => l.level === "error" || l.level === "warn"),
    [],
  );
});
