// Delivery and redelivery: mail that fails waits and goes exactly once; nothing stays stuck or unseen
// (a claim that expires, a failure the provider reports later); retries happen without a scheduler.
import assert from "node:assert/strict";
import { REDELIVERY_SECRET_HEADER } from "../../supabase/functions/send-contact-email/handler.ts";
import { resendFailure, smtpFailure } from "../../supabase/functions/send-contact-email/mailer.ts";
import { signedWebhook, startResendStandIn } from "./resend-standin.ts";
import {
  attemptsAbout,
  callRedeliver,
  CLOSED_PORT,
  db,
  emailOf,
  enquiry,
  mailsAbout,
  mailsTo,
  makeDue,
  STACK_FUNCTION_ENV,
  REJECTED_DOMAIN,
  rowsAbout,
  setup,
  STUDIO_INBOX,
  test,
  token,
  URL_,
  valid,
} from "./support.ts";

const MAX_ATTEMPTS = 10;

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
  const [a, b] = await Promise.all([callRedeliver(up), callRedeliver(up)]);
  const reports = await Promise.all([a.json(), b.json()]);
  assert.deepEqual([a.status, b.status], [200, 200]);
  assert.ok(
    reports.some((r) => r.stopped === "another-run"),
    "one run at a time: the second finds the lease taken",
  );
  const again = await (await callRedeliver(up)).json();
  assert.equal(again.sent, 0, "nothing left to send");
  assert.equal((await mailsAbout(t)).length, 2, "each mail exactly once");
  const [after] = await rowsAbout(t);
  assert.deepEqual(
    after!.deliveries.map((d: { status: string }) => d.status),
    ["sent", "sent"],
  );
});

test("with the provider refusing, then silent, three scheduler calls each try one delivery and abandon none; once back, each mail goes exactly once", async () => {
  const t = token();
  const enquiries = 30; // 60 deliveries
  {
    await using down = setup({ SMTP_PORT: CLOSED_PORT }, { afterEnquiry: false });
    for (let i = 0; i < enquiries; i++)
      assert.equal((await down.handle(enquiry({ ...valid(`${t}-${i}`), email: emailOf(`${t}-${i}`) }))).status, 200);
  }
  assert.deepEqual(
    (await attemptsAbout(t)).map((d) => d.attempts),
    Array(enquiries * 2).fill(1),
  );
  // Refusing (nothing listens), then silent (accepts and never answers): three calls each, as fast as they come.
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  await makeDue(t);
  const before = (await attemptsAbout(t)).reduce((sum, d) => sum + d.attempts, 0);
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
  const tries = afterOutage.reduce((sum, d) => sum + d.attempts, 0) - before;
  assert.ok(tries <= 6, `at most one try per call, got ${tries} in 6 calls`);
  assert.ok(
    afterOutage.every((d) => d.status === "pending"),
    JSON.stringify(afterOutage),
  );

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

test("a permanent refusal (no such recipient) is dead after one try: in the view, in the log as a warning about that enquiry (a typo is no alarm), in /redeliver's answer; that address gets no confirmation again", async () => {
  await using fn = setup();
  const t = token();
  const nobody = `nobody-${t.toLowerCase()}@${REJECTED_DOMAIN}`;
  const response = await fn.handle(enquiry({ ...valid(t), email: nobody }));
  assert.equal(response.status, 200, "the enquiry itself is stored");
  const deliveries = await attemptsAbout(t);
  assert.deepEqual(deliveries.map((d) => [d.kind, d.status, d.attempts]).sort(), [
    ["confirmation", "dead", 1],
    ["studio", "sent", 1],
  ]);
  const [dead] = await db`select * from private.undelivered_mail where project_title = ${valid(t).projectTitle}`;
  assert.equal(dead!.kind, "confirmation");
  assert.match(dead!.reason, /550|no such user/);
  assert.doesNotMatch(dead!.reason, /nobody-/, "stored error texts carry no address");
  const logged = fn.lines.find((l) => l.event === "delivery-dead");
  assert.equal(logged?.level, "warn");
  assert.equal(logged?.permanent, true);
  assert.equal(logged?.enquiry, dead!.enquiry_id, "about that enquiry");
  assert.deepEqual(
    fn.lines.filter((l) => l.level === "error"),
    [],
    "nothing at error level",
  );
  const report = await (await callRedeliver(fn)).json();
  assert.ok(report.undeliveredTotal >= 1, JSON.stringify(report));
  assert.equal((await attemptsAbout(t)).find((d) => d.status === "dead")!.attempts, 1, "never tried again");

  const [recorded] = await db`select * from private.undeliverable where address = ${nobody}`;
  assert.equal(recorded!.source, "refused");
  assert.equal(recorded!.studio, false);
  const later = token();
  assert.equal((await fn.handle(enquiry({ ...valid(later), email: nobody }))).status, 200);
  assert.deepEqual((await attemptsAbout(later)).map((d) => [d.kind, d.status]).sort(), [
    ["confirmation", "suppressed"],
    ["studio", "sent"],
  ]);
});

test("a delivery stuck in 'sending' whose claim expired: at the last attempt it ends dead and listed; with one attempt left it is retried and sent", async () => {
  await using fn = setup({}, { afterEnquiry: false });
  const last = token();
  const spare = token();
  for (const t of [last, spare]) assert.equal((await fn.handle(enquiry(valid(t)))).status, 200);
  // The process died mid-send: status 'sending', the claim long expired.
  await db`update contact_deliveries set status = 'sending', locked_until = now() - interval '10 minutes', attempts = ${MAX_ATTEMPTS}
    where enquiry_id in (select id from contact_enquiries where project_title like ${"%" + last + "%"})`;
  await db`update contact_deliveries set status = 'sending', locked_until = now() - interval '10 minutes', attempts = ${MAX_ATTEMPTS - 1}
    where enquiry_id in (select id from contact_enquiries where project_title like ${"%" + spare + "%"})`;

  const report = await (await callRedeliver(fn)).json();
  assert.ok(report.dead >= 2, JSON.stringify(report));
  const stuck = await attemptsAbout(last);
  assert.deepEqual(
    stuck.map((d) => d.status),
    ["dead", "dead"],
  );
  assert.ok(
    stuck.every((d) => /claim expired/.test(d.last_error ?? "")),
    JSON.stringify(stuck),
  );
  const listed = await db`select reason from private.undelivered_mail where project_title = ${valid(last).projectTitle}`;
  assert.equal(listed.length, 2);
  const retried = await attemptsAbout(spare);
  assert.deepEqual(
    retried.map((d) => [d.status, d.attempts]),
    [
      ["sent", MAX_ATTEMPTS],
      ["sent", MAX_ATTEMPTS],
    ],
  );
  const counts = await db`select count(*)::int as n from contact_deliveries where status = 'sending' and locked_until < now()`;
  assert.equal(counts[0]!.n, 0, "no delivery is left neither due, nor sent, nor dead");
});

test("with no scheduler at all: a mail that failed while SMTP was down is sent when the next enquiry arrives", async () => {
  const first = token();
  {
    await using down = setup({ SMTP_PORT: CLOSED_PORT });
    assert.equal((await down.handle(enquiry(valid(first)))).status, 200);
  }
  assert.deepEqual(
    (await attemptsAbout(first)).map((d) => d.status),
    ["pending", "pending"],
  );
  await makeDue(first);
  // SMTP is back; nobody calls /redeliver. A visitor sends an enquiry.
  await using up = setup();
  const next = token();
  assert.equal((await up.handle(enquiry(valid(next)))).status, 200);
  assert.deepEqual(
    (await attemptsAbout(first)).map((d) => d.status),
    ["sent", "sent"],
  );
  assert.equal((await mailsAbout(first)).length, 2);
  const [state] = await db`select last_run_at, last_report from private.redelivery_state`;
  assert.equal(state!.last_report.trigger, "after-enquiry");
});

test("a burst of enquiries starts one background redelivery run per instance and 30 s, not one each", async () => {
  await using fn = setup();
  const runAt = async () => (await db`select last_run_at from private.redelivery_state`)[0]!.last_run_at as Date;
  const started = await runAt();
  assert.equal((await fn.handle(enquiry(valid(token())))).status, 200);
  const first = await runAt();
  assert.ok(first.getTime() > (started?.getTime() ?? 0), "the first enquiry started a run");
  for (let i = 0; i < 5; i++) assert.equal((await fn.handle(enquiry(valid(token())))).status, 200);
  assert.equal((await runAt()).getTime(), first.getTime());
});

test("with no mail transport that can work (no Resend key), enquiries are still stored and their mail waits without spending attempts", async () => {
  await using fn = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "" });
  assert.ok(fn.problems.some((p) => p.variable === "RESEND_API_KEY"));
  const t = token();
  assert.equal((await fn.handle(enquiry(valid(t)))).status, 200);
  assert.deepEqual(
    (await attemptsAbout(t)).map((d) => [d.status, d.attempts]),
    [
      ["pending", 0],
      ["pending", 0],
    ],
  );
  const report = await (await callRedeliver(fn)).json();
  assert.equal(report.stopped, "no-mail-transport");
});

test("Resend: the message id is kept, the mail carries its enquiry and kind as tags, and a 409 for a reused key is permanent", async () => {
  await using resend = startResendStandIn("re_test_key");
  await using fn = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_key", RESEND_API_URL: resend.url });
  const t = token();
  const response = await fn.handle(enquiry(valid(t)));
  const { id } = await response.json();
  const rows = await db`select kind, status, provider_id from contact_deliveries where enquiry_id = ${id} order by kind`;
  assert.deepEqual(
    rows.map((r) => r.status),
    ["sent", "sent"],
  );
  for (const row of rows) {
    const sent = resend.sent.find((s) => s.id === row.provider_id);
    assert.ok(sent, `the stored id ${row.provider_id} is Resend's`);
    assert.deepEqual(sent.body.tags, [
      { name: "enquiry", value: id },
      { name: "kind", value: row.kind },
    ]);
  }

  const reused = token();
  resend.failNext({ status: 409, name: "invalid_idempotent_request" }, { status: 409, name: "concurrent_idempotent_requests" });
  assert.equal((await fn.handle(enquiry(valid(reused)))).status, 200);
  const outcomes = (await attemptsAbout(reused)).map((d) => d.status).sort();
  assert.deepEqual(outcomes, ["dead", "pending"], "invalid_idempotent_request is dead at once; concurrent_idempotent_requests waits");
});

test("the provider refusing the studio's account (a wrong key, a sender it will not take): mail waits without spending attempts, /health says why, nobody is marked undeliverable, and all goes once it is fixed", async () => {
  await using resend = startResendStandIn("re_right_key");
  const t = token();
  const health = async (fn: { handle(r: Request): Promise<Response> }) =>
    await fn.handle(new Request(`${URL_}/health`, { headers: { [REDELIVERY_SECRET_HEADER]: STACK_FUNCTION_ENV.REDELIVERY_SECRET! } }));
  {
    await using wrongKey = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_wrong_key", RESEND_API_URL: resend.url });
    assert.equal((await wrongKey.handle(enquiry(valid(t)))).status, 200, "the enquiry is stored");
    assert.deepEqual(
      (await attemptsAbout(t)).map((d) => [d.status, d.attempts]),
      [
        ["pending", 0],
        ["pending", 0],
      ],
    );
    const refused = wrongKey.lines.find((l) => l.event === "mail-account-refused");
    assert.equal(refused?.level, "error");
    assert.match(String(refused?.reason), /403/);
    const answer = await health(wrongKey);
    assert.equal(answer.status, 503);
    assert.match((await answer.json()).mail.accountRefused.reason, /invalid_api_key/);
    // However many runs, nothing dies of it and no attempt is spent; each run stops at the first refusal.
    for (let run = 0; run < 12; run++) {
      await makeDue(t);
      const report = await (await callRedeliver(wrongKey)).json();
      assert.ok(["account-refused", "another-run"].includes(report.stopped), JSON.stringify(report));
    }
    assert.ok((await attemptsAbout(t)).every((d) => d.status === "pending" && d.attempts === 0));
  }
  const marked = await db`select from private.undeliverable_addresses where address in (${emailOf(t)}, ${STUDIO_INBOX})`;
  assert.equal(marked.length, 0, "neither the visitor nor the studio is blamed");

  // The same with a sender Resend refuses (422 invalid_from_address), then the owner fixes the key.
  resend.failNext({ status: 422, name: "invalid_from_address" });
  await using fixed = setup(
    { MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_right_key", RESEND_API_URL: resend.url },
    { afterEnquiry: false },
  );
  await makeDue(t);
  assert.equal((await (await callRedeliver(fixed)).json()).stopped, "account-refused");
  await makeDue(t);
  await callRedeliver(fixed);
  assert.deepEqual(
    (await attemptsAbout(t)).map((d) => d.status),
    ["sent", "sent"],
  );
  const about = (s: { body: Record<string, unknown> }) =>
    JSON.stringify(s.body).includes(t) || JSON.stringify(s.body.to).includes(emailOf(t));
  assert.equal(resend.sent.filter(about).length, 2, "each mail exactly once");
  assert.equal((await (await health(fixed)).json()).mail.accountRefused, null, "a sent mail clears the refusal");
});

test("what a refusal blames: Resend's 4xx about this mail kills only it; SMTP's RCPT refusal blames the recipient, MAIL FROM and 53x the account", () => {
  assert.equal(resendFailure(401, "missing_api_key"), "account");
  assert.equal(resendFailure(403, "validation_error", "The lakeshoresound.ca domain is not verified"), "account");
  assert.equal(resendFailure(422, "invalid_from_address"), "account");
  assert.equal(resendFailure(422, "validation_error", "Invalid `from` field."), "account");
  assert.equal(resendFailure(422, "validation_error", "Invalid `to` field."), "mail");
  // The visitor's Reply-To, even where the message names its domain: never the studio's account.
  assert.equal(resendFailure(422, "validation_error", "Invalid `reply_to` field: the domain is invalid."), "reply-to");
  assert.equal(resendFailure(409, "invalid_idempotent_request"), "mail");
  assert.equal(resendFailure(409, "concurrent_idempotent_requests"), "temporary");
  for (const status of [408, 429, 500, 502, 503]) assert.equal(resendFailure(status), "temporary");
  assert.equal(resendFailure(429, "rate_limit_exceeded"), "temporary");
  assert.equal(resendFailure(429, "monthly_quota_exceeded"), "account", "nothing goes until the quota resets: the owner must hear of it");
  assert.equal(resendFailure(429, "daily_quota_exceeded"), "account");
  assert.equal(smtpFailure({ responseCode: 550, command: "RCPT TO" }), "recipient");
  assert.equal(smtpFailure({ responseCode: 554, command: "DATA" }), "mail");
  assert.equal(smtpFailure({ responseCode: 553, command: "MAIL FROM" }), "account");
  assert.equal(smtpFailure({ responseCode: 535, command: "AUTH PLAIN" }), "account");
  assert.equal(smtpFailure({ responseCode: 451, command: "RCPT TO" }), "temporary");
  assert.equal(smtpFailure({}), "temporary");
});

test("Resend's webhook: a signed bounce makes the delivery dead and that exact address undeliverable, not its mailbox's other spellings; a bad signature gets 401 and changes nothing", async () => {
  await using resend = startResendStandIn("re_test_key");
  await using fn = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_key", RESEND_API_URL: resend.url });
  const secret = STACK_FUNCTION_ENV.RESEND_WEBHOOK_SECRET!;
  const t = token();
  const { id } = await (await fn.handle(enquiry(valid(t)))).json();
  const [confirmation] = await db`select provider_id from contact_deliveries where enquiry_id = ${id} and kind = 'confirmation'`;
  const bounce = {
    type: "email.bounced",
    created_at: new Date().toISOString(),
    data: {
      email_id: confirmation!.provider_id,
      to: [emailOf(t)],
      subject: "We received your enquiry",
      bounce: { message: "Mailbox does not exist", type: "Permanent", subType: "General" },
    },
  };
  const url = `${URL_}/resend-webhook`;

  // Tampered with, unsigned, signed with another secret, or too old: 401, nothing changes.
  const tampered = await signedWebhook(url, secret, bounce);
  const forged = new Request(tampered.url, {
    method: "POST",
    headers: tampered.headers,
    body: JSON.stringify({ ...bounce, type: "email.complained" }),
  });
  const unsigned = new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(bounce) });
  const otherSecret = await signedWebhook(url, `whsec_${btoa("another-secret-entirely-0123456789")}`, bounce);
  const stale = await signedWebhook(url, secret, bounce, Math.floor(Date.now() / 1000) - 3600);
  for (const request of [forged, unsigned, otherSecret, stale]) assert.equal((await fn.handle(request)).status, 401);
  assert.deepEqual(
    (await attemptsAbout(t)).map((d) => d.status),
    ["sent", "sent"],
  );

  const accepted = await fn.handle(await signedWebhook(url, secret, bounce));
  assert.equal(accepted.status, 200);
  assert.deepEqual(await accepted.json(), { status: "ok", handled: true });
  const after = await attemptsAbout(t);
  assert.deepEqual(after.map((d) => [d.kind, d.status]).sort(), [
    ["confirmation", "dead"],
    ["studio", "sent"],
  ]);
  assert.match(after.find((d) => d.kind === "confirmation")!.last_error!, /email\.bounced: Mailbox does not exist/);
  const [recorded] = await db`select source from private.undeliverable where address = ${emailOf(t)}`;
  assert.equal(recorded!.source, "bounced");

  // The address that bounced gets no confirmation again; the studio still hears of the enquiry.
  const again = token();
  assert.equal((await fn.handle(enquiry({ ...valid(again), email: emailOf(t) }))).status, 200);
  assert.deepEqual((await attemptsAbout(again)).map((d) => [d.kind, d.status]).sort(), [
    ["confirmation", "suppressed"],
    ["studio", "sent"],
  ]);
  // Another spelling of the same mailbox did not bounce: a bounce of an alias that never existed
  // (quinn+nosuch@) says nothing of the mailbox behind it, as the provider's own suppression list.
  const alias = token();
  assert.equal((await fn.handle(enquiry({ ...valid(alias), email: emailOf(t).replace("@", "+x@") }))).status, 200);
  assert.deepEqual((await attemptsAbout(alias)).map((d) => [d.kind, d.status]).sort(), [
    ["confirmation", "sent"],
    ["studio", "sent"],
  ]);
});

test("Resend's webhook for the studio's own mail flags STUDIO_INBOX in /health at error level", async () => {
  await using resend = startResendStandIn("re_test_key");
  const inbox = `studio-${token().toLowerCase()}@studio.test`;
  await using fn = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_key", RESEND_API_URL: resend.url, STUDIO_INBOX: inbox });
  const t = token();
  const { id } = await (await fn.handle(enquiry(valid(t)))).json();
  const event = {
    type: "email.bounced",
    data: { to: [inbox], tags: { enquiry: id, kind: "studio" }, bounce: { message: "No such mailbox" } },
  };
  assert.equal(
    (await fn.handle(await signedWebhook(`${URL_}/resend-webhook`, STACK_FUNCTION_ENV.RESEND_WEBHOOK_SECRET!, event))).status,
    200,
  );
  assert.ok(fn.lines.some((l) => l.kind === "studio" && l.level === "error"));
  const health = await fn.handle(
    new Request(`${URL_}/health`, { headers: { "x-redelivery-secret": STACK_FUNCTION_ENV.REDELIVERY_SECRET! } }),
  );
  assert.equal(health.status, 503);
  assert.equal((await health.json()).mail.studioInboxUndeliverable, true);
});

test("a visitor's address that resembles the studio's inbox and bounces is that visitor's: the studio's inbox is not marked, /health does not change, nothing at error level", async () => {
  await using resend = startResendStandIn("re_test_key");
  const inbox = `bookings-${token().toLowerCase()}@studio.test`;
  await using fn = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_key", RESEND_API_URL: resend.url, STUDIO_INBOX: inbox });
  const owner = { headers: { [REDELIVERY_SECRET_HEADER]: STACK_FUNCTION_ENV.REDELIVERY_SECRET! } };
  // /health reads the whole database, which other tests share (a studio mail they made dead): what
  // matters is that these bounces change none of it.
  const before = await (await fn.handle(new Request(`${URL_}/health`, owner))).json();
  for (const lookalike of [inbox.replace("@", "+x@"), inbox.toUpperCase()]) {
    const t = token();
    const { id } = await (await fn.handle(enquiry({ ...valid(t), email: lookalike }))).json();
    const event = {
      type: "email.bounced",
      data: { to: [lookalike], tags: { enquiry: id, kind: "confirmation" }, bounce: { message: "No such mailbox" } },
    };
    const hook = await fn.handle(await signedWebhook(`${URL_}/resend-webhook`, STACK_FUNCTION_ENV.RESEND_WEBHOOK_SECRET!, event));
    assert.equal(hook.status, 200);
    const after = await (await fn.handle(new Request(`${URL_}/health`, owner))).json();
    assert.equal(after.mail.studioInboxUndeliverable, false, lookalike);
    assert.equal(after.status, before.status, JSON.stringify(after.mail));
  }
  assert.deepEqual(
    fn.lines.filter((l) => l.level === "error"),
    [],
  );
  // The studio's own mail still gets through to the real inbox.
  assert.ok(resend.sent.some((m) => [m.body.to].flat().includes(inbox)));
});

test("an address Resend refuses (422) is a warning about that enquiry, never an alarm: the studio's mail goes, /health does not change", async () => {
  await using resend = startResendStandIn("re_test_key");
  await using fn = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_key", RESEND_API_URL: resend.url });
  const t = token();
  resend.refuse(emailOf(t));
  const owner = { headers: { [REDELIVERY_SECRET_HEADER]: STACK_FUNCTION_ENV.REDELIVERY_SECRET! } };
  const before = await (await fn.handle(new Request(`${URL_}/health`, owner))).json();
  const { id } = await (await fn.handle(enquiry(valid(t)))).json();
  assert.deepEqual((await attemptsAbout(t)).map((d) => [d.kind, d.status]).sort(), [
    ["confirmation", "dead"],
    ["studio", "sent"],
  ]);
  const dead = fn.lines.find((l) => l.event === "delivery-dead");
  assert.deepEqual([dead?.level, dead?.enquiry, dead?.kind], ["warn", id, "confirmation"]);
  assert.deepEqual(
    fn.lines.filter((l) => l.level === "error"),
    [],
  );
  const after = await (await fn.handle(new Request(`${URL_}/health`, owner))).json();
  assert.equal(after.status, before.status, "/health does not change");
  assert.equal(after.mail.studioInboxUndeliverable, false);
});

test("the digest: oldest first, the same key for the same enquiries, and a failed one does not stop the other retries", async () => {
  const t = token();
  await db`delete from contact_rate_limits where bucket like 'global:%'`;
  {
    await using flood = setup({ RATE_LIMIT_GLOBAL: "1" }, { afterEnquiry: false });
    for (let i = 0; i < 4; i++)
      assert.equal((await flood.handle(enquiry({ ...valid(`${t}-${i}`), email: emailOf(`${t}-${i}`) }))).status, 200);
  }
  // A mail of another enquiry is due for a retry at the same time.
  const retry = token();
  {
    await using down = setup({ SMTP_PORT: CLOSED_PORT }, { afterEnquiry: true });
    assert.equal((await down.handle(enquiry(valid(retry)))).status, 200);
  }
  await makeDue(retry);
  await using resend = startResendStandIn("re_test_key");
  await using fn = setup({
    MAIL_TRANSPORT: "resend",
    RESEND_API_KEY: "re_test_key",
    RESEND_API_URL: resend.url,
    RATE_LIMIT_GLOBAL: "1000",
  });
  resend.failNext({ status: 500, name: "internal_server_error" });
  const failed = await (await callRedeliver(fn)).json();
  assert.equal(failed.digested, 0);
  assert.ok(failed.sent >= 1, `the other retries went on: ${JSON.stringify(failed)}`);
  assert.deepEqual(
    (await attemptsAbout(retry)).map((d) => d.status),
    ["sent", "sent"],
  );

  const digested = await (await callRedeliver(fn)).json();
  assert.ok(digested.digested >= 3, JSON.stringify(digested));
  const digest = resend.sent.find((s) => String(s.body.subject).includes("held during a busy period") && String(s.body.text).includes(t))!;
  assert.ok(digest, "the digest went out");
  const order = [0, 1, 2, 3].map((i) => String(digest.body.text).indexOf(`Debut EP ${t}-${i}`)).filter((at) => at >= 0);
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
    "oldest first",
  );
  assert.match(digest.key!, /^digest:[0-9a-f]{64}$/);
  await db`delete from contact_rate_limits where bucket like 'global:%'`;
});

test("studio mail goes to the studio and a confirmation to the visitor, both from MAIL_FROM", async () => {
  await using fn = setup();
  const t = token();
  await fn.handle(enquiry(valid(t)));
  const [studio] = await mailsTo(STUDIO_INBOX).then((all) => all.filter((m) => m.text.includes(t)));
  assert.ok(studio);
  assert.equal((await mailsTo(emailOf(t))).length, 1);
});

test("a studio notification given up in the last 24 hours turns /health to error for the owner to read; an older one does not", async () => {
  await using fn = setup();
  const t = token();
  assert.equal((await fn.handle(enquiry(valid(t)))).status, 200);
  const health = async () =>
    await (
      await fn.handle(new Request(`${URL_}/health`, { headers: { [REDELIVERY_SECRET_HEADER]: STACK_FUNCTION_ENV.REDELIVERY_SECRET! } }))
    ).json();
  await db`update contact_deliveries set status = 'dead', dead_at = now(), last_error = 'test'
    where kind = 'studio' and enquiry_id in (select id from contact_enquiries where project_title like ${"%" + t + "%"})`;
  const now = await health();
  assert.equal(now.status, "error");
  assert.equal(now.mail.studioMailDeadLastDay, true);
  await db`update contact_deliveries set dead_at = now() - interval '25 hours' where kind = 'studio' and status = 'dead'`;
  assert.equal((await health()).mail.studioMailDeadLastDay, false);
});

/** The owner's /health, with the studio's dead notifications other tests left aged past its day (the database is shared). */
async function ownerHealthAfterOthersAged(fn: { handle(r: Request): Promise<Response> }) {
  return await (
    await fn.handle(new Request(`${URL_}/health`, { headers: { [REDELIVERY_SECRET_HEADER]: STACK_FUNCTION_ENV.REDELIVERY_SECRET! } }))
  ).json();
}
const ageOthersDeadStudioMail = () =>
  db`update contact_deliveries set dead_at = now() - interval '25 hours' where kind = 'studio' and status = 'dead'`;

test("a Reply-To Resend refuses (an address the form accepts) is the visitor's part: the studio's notification goes again without it, the visitor's address in its text; a warning about that enquiry, /health unchanged", async () => {
  await using resend = startResendStandIn("re_test_key");
  const inbox = `bookings-${token().toLowerCase()}@studio.test`;
  await using fn = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_key", RESEND_API_URL: resend.url, STUDIO_INBOX: inbox });
  await ageOthersDeadStudioMail();
  const t = token();
  const email = `a{b}-${t.toLowerCase()}@example.com`;
  resend.refuseReplyTo(email);
  const answer = await fn.handle(enquiry({ ...valid(t), email }));
  assert.equal(answer.status, 200);
  const { id } = await answer.json();
  assert.deepEqual((await attemptsAbout(t)).map((d) => [d.kind, d.status]).sort(), [
    ["confirmation", "sent"],
    ["studio", "sent"],
  ]);
  const notification = resend.sent.find((m) => [m.body.to].flat().includes(inbox))!;
  assert.equal(notification.body.reply_to, undefined);
  assert.ok(String(notification.body.text).includes(email), "the visitor's address is in the text");
  assert.deepEqual(
    fn.lines.filter((l) => l.level === "error"),
    [],
  );
  const warning = fn.lines.find((l) => l.event === "reply-to-refused");
  assert.deepEqual([warning?.level, warning?.enquiry], ["warn", id]);
  const health = await ownerHealthAfterOthersAged(fn);
  assert.equal(health.mail.studioMailDeadLastDay, false);
  assert.equal(health.mail.studioInboxUndeliverable, false);
});

test("a signed bounce refusing the studio notification's content (Permanent/ContentRejected: what a visitor wrote) is no undeliverable inbox: a warning about that enquiry, /health unchanged", async () => {
  await using resend = startResendStandIn("re_test_key");
  const inbox = `bookings-${token().toLowerCase()}@studio.test`;
  await using fn = setup({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_key", RESEND_API_URL: resend.url, STUDIO_INBOX: inbox });
  await ageOthersDeadStudioMail();
  const t = token();
  const { id } = await (
    await fn.handle(enquiry({ ...valid(t), projectDetails: `XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X ${t}` }))
  ).json();
  const event = {
    type: "email.bounced",
    data: {
      to: [inbox],
      tags: { enquiry: id, kind: "studio" },
      bounce: { type: "Permanent", subType: "ContentRejected", message: "Message rejected: content" },
    },
  };
  const hook = await fn.handle(await signedWebhook(`${URL_}/resend-webhook`, STACK_FUNCTION_ENV.RESEND_WEBHOOK_SECRET!, event));
  assert.equal(hook.status, 200);
  assert.equal((await db`select address from private.undeliverable_addresses where address = ${inbox}`).length, 0);
  assert.deepEqual(
    fn.lines.filter((l) => l.level === "error"),
    [],
  );
  const line = fn.lines.find((l) => l.outcome === "recorded");
  assert.deepEqual([line?.level, line?.enquiry, line?.kind], ["warn", id, "studio"]);
  const health = await ownerHealthAfterOthersAged(fn);
  assert.equal(health.mail.studioInboxUndeliverable, false);
  assert.equal(health.mail.studioMailDeadLastDay, false);
  // The studio's notification is listed dead (private.undelivered_mail) for the owner to read, with its cause.
  assert.match((await attemptsAbout(t)).find((d) => d.kind === "studio")!.last_error!, /^content refused, not the address/);
});
