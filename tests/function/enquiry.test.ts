// The enquiry flow of send-contact-email: what is stored and mailed, what is refused and why, and
// that every endpoint is exact. Against the real PostgreSQL and SMTP catcher of the local stack.
import assert from "node:assert/strict";
import fc from "fast-check";
import { ENQUIRY_HEADERS, FIELDS, MAX_BODY_BYTES } from "../../supabase/functions/_shared/contact-message.ts";
import {
  client,
  db,
  emailOf,
  enquiry,
  mailsAbout,
  mailsTo,
  ORIGIN,
  rowsAbout,
  setup,
  STUDIO_INBOX,
  test,
  token,
  URL_,
  valid,
} from "./support.ts";

/** An address of `length` characters: a 64-character local part and 63-character labels. */
const longestAddress = (length: number) =>
  `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(length - 64 - 1 - 128 - 4)}.com`;

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
  assert.deepEqual(
    rows[0]!.deliveries.map((d: { status: string }) => d.status),
    ["sent", "sent"],
  );

  const mails = await mailsAbout(t);
  assert.equal(mails.length, 2);
  const studio = mails.find((m) => m.to === STUDIO_INBOX)!;
  assert.equal(studio.replyTo, emailOf(t));
  assert.equal(studio.subject, `New enquiry: Debut EP ${t}`);
  assert.match(studio.text, new RegExp(`Four songs ${t}`));
  assert.match(studio.html, /Ada Lovelace/);
  const confirmation = mails.find((m) => m.to === emailOf(t))!;
  assert.match(confirmation.text, /^Hi there,/);
  assert.match(confirmation.text, /We'll get back to you within 24 hours\./);
  assert.doesNotMatch(
    confirmation.text + confirmation.html,
    /Four songs|Debut EP|Ada/,
    "nothing the visitor wrote goes to the address they gave",
  );
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
  // Empty and one line as a reader sees them (the mails' cleaning): decision 002.
  ["a name of zero-width characters only", (t) => enquiry({ ...valid(t), name: "\u200B\u200C\u2060\uFEFF" }), 422],
  ["a project title of wide spaces, a filler and a mark alone", (t) => enquiry({ ...valid(t), projectTitle: "\u3000\u3164\u0301" }), 422],
  ["a name of object replacement characters", (t) => enquiry({ ...valid(t), name: "\uFFFC\uFFFC" }), 422],
  ["an email of bidi controls only", (t) => enquiry({ ...valid(t), email: "\u202E\u2066" }), 422],
  ["a tab in the name", (t) => enquiry({ ...valid(t), name: "Ada\tLovelace" }), 422],
  ["a next-line character (NEL) in the project title", (t) => enquiry({ ...valid(t), projectTitle: `EP ${t}\u0085X-Spam: 1` }), 422],
  ["a name over 100 characters", (t) => enquiry({ ...valid(t), name: "x".repeat(101) }), 422],
  ["details over 5000 characters", (t) => enquiry({ ...valid(t), projectDetails: "x".repeat(5001) }), 422],
  ["a line break in the name (header injection)", (t) => enquiry({ ...valid(t), name: "Ada\r\nBcc: victim@example.com" }), 422],
  ["a line break in the email (header injection)", (t) => enquiry({ ...valid(t), email: "ada@example.com\nBcc: v@example.com" }), 422],
  ["a line break in the project title", (t) => enquiry({ ...valid(t), projectTitle: `EP ${t}\r\nX-Spam: 1` }), 422],
  [
    "an encoded word as the address's local part",
    (t) => enquiry({ ...valid(t), email: "=?UTF-8?Q?x=0D=0ABcc=3A_y=40evil=2Eexample?=@example.com" }),
    422,
  ],
  ["a field that is not text", (t) => enquiry({ ...valid(t), name: ["Ada"] }), 422],
  ["a body that is not JSON", (t) => enquiry(`name=Ada&title=${t}`), 400],
  ["a body that is not declared as JSON", (t) => enquiry(JSON.stringify(valid(t)), { "content-type": "text/plain" }), 415],
  [
    "JSON declared in another charset",
    (t) => enquiry(JSON.stringify(valid(t)), { "content-type": "application/json; charset=latin1" }),
    415,
  ],
  [
    "a second charset after UTF-8",
    (t) => enquiry(JSON.stringify(valid(t)), { "content-type": "application/json; charset=utf-8; charset=latin1" }),
    415,
  ],
  ["a body over the size cap", (t) => enquiry({ ...valid(t), padding: "x".repeat(MAX_BODY_BYTES) }), 413],
  ["the wrong method", () => new Request(URL_, { method: "PUT", headers: { origin: ORIGIN } }), 405],
  ["a malformed idempotency key", (t) => enquiry(valid(t), { [ENQUIRY_HEADERS.idempotencyKey]: "not-a-uuid" }), 400],
  ["an origin that is not the site's", (t) => enquiry(valid(t), { origin: "https://evil.example" }), 403],
];

for (const [what, request, status] of badInputs) {
  test(`refuses ${what} with ${status}, storing and sending nothing`, async () => {
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

// No real visitor is refused for speed, nor told of a confirmation that never comes (decision 031): a
// password manager fills the form in one step. The fill time only tightens the confirmation's limits.
for (const [what, fill] of [
  ["0.3 s after an autofill", "300"],
  ["with no fill time at all", ""],
  ["with a fill time that is not plain digits (0x5dc, 5e3, +5000.5)", "0x5dc"],
]) {
  test(`a Send ${what} is an enquiry like any other: stored, answered with success, both mails sent`, async () => {
    await using fn = setup();
    const t = token();
    const response = await fn.handle(enquiry(valid(t), { [ENQUIRY_HEADERS.fillMs]: fill }));
    assert.equal(response.status, 200);
    assert.equal((await response.json()).status, "ok");
    const [row] = await rowsAbout(t);
    assert.deepEqual(
      row!.deliveries.map((d: { kind: string; status: string }) => [d.kind, d.status]),
      [
        ["confirmation", "sent"],
        ["studio", "sent"],
      ],
    );
    assert.deepEqual((await mailsAbout(t)).map((m) => m.to).sort(), [emailOf(t), STUDIO_INBOX].sort());
  });
}

/** The enquiries about `t` made `hours` older, as if sent then. */
const age = (t: string, hours: number) =>
  db`update contact_enquiries set created_at = created_at - make_interval(hours => ${hours}) where project_title like ${`%${t}`}`;
type Delivery = { kind: string; status: string; last_error: string | null };
/** What became of the confirmations of the enquiries about `t`: "sent", or why it was withheld. */
const confirmationOf = async (t: string) =>
  (await rowsAbout(t))
    .flatMap((r) => r.deliveries as Delivery[])
    .filter((d) => d.kind === "confirmation")
    .map((d) => d.last_error ?? d.status);

test("a quick Send is held to the same bounds as any other for its mailbox: confirmed after another sender's confirmation to it; the studio hears of every enquiry", async () => {
  await using fn = setup();
  // A mailbox confirmed two hours ago from another sender: a quick Send to it is confirmed too (decision 031).
  const [t1, t2, t3, t4] = [token(), token(), token(), token()];
  assert.equal((await fn.handle(enquiry(valid(t1)))).status, 200);
  await age(t1, 2);
  assert.equal((await fn.handle(enquiry({ ...valid(t2), email: emailOf(t1) }, { [ENQUIRY_HEADERS.fillMs]: "300" }))).status, 200);
  assert.deepEqual(await confirmationOf(t2), ["sent"]);
  // Its sender's day is tighter: a second quick Send of theirs, to another address, is not confirmed.
  const sender = client();
  assert.equal((await fn.handle(enquiry(valid(t3), { "cf-connecting-ip": sender, [ENQUIRY_HEADERS.fillMs]: "0" }))).status, 200);
  assert.equal((await fn.handle(enquiry(valid(t4), { "cf-connecting-ip": sender, [ENQUIRY_HEADERS.fillMs]: "0" }))).status, 200);
  assert.deepEqual(
    [await confirmationOf(t3), await confirmationOf(t4)],
    [["sent"], ["suppressed: sent faster than a person fills the form in, and the sender's quick confirmations for the day are used up"]],
  );
  for (const t of [t2, t3, t4])
    assert.ok(
      (await mailsAbout(t)).some((m) => m.to === STUDIO_INBOX),
      t,
    );
});

test("refuses a body that is not UTF-8 with 400 and stores nothing (never U+FFFD)", async () => {
  await using fn = setup();
  const t = token();
  const bytes = new TextEncoder().encode(JSON.stringify({ ...valid(t), name: "Ada XX" }));
  bytes.set([0xff, 0xfe], bytes.indexOf("X".charCodeAt(0)));
  const response = await fn.handle(enquiry(bytes));
  assert.equal(response.status, 400);
  assert.equal((await response.json()).message, "The request body must be UTF-8.");
  assert.equal((await rowsAbout(t)).length, 0);
});

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

test("any honeypot value gets the silent success a bot gets: nothing stored or sent", async () => {
  await using fn = setup();
  await fc.assert(
    fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40, unit: "binary" }), async (trap) => {
      // What a header can carry: the browser sends "1"; a script may send any Latin-1 text.
      const value =
        [...trap]
          .map((c) => (c.charCodeAt(0) > 0xff || c === "\r" || c === "\n" || c === "\0" ? "x" : c))
          .join("")
          .trim() || "x";
      const t = token();
      const response = await fn.handle(enquiry(valid(t), { [ENQUIRY_HEADERS.trap]: value }));
      assert.equal(response.status, 200);
      assert.equal((await response.json()).status, "ok");
      assert.equal((await rowsAbout(t)).length, 0);
    }),
    { numRuns: 25 },
  );
});

test("a message with every field at its limit in four-byte characters is stored, not refused as too large", async () => {
  await using fn = setup();
  const t = token();
  const wide = (limit: number, text = "") => text + "\u{1F3B8}".repeat(limit - [...text].length);
  const message = Object.fromEntries(
    FIELDS.map((f) => [f.name, f.name === "email" ? longestAddress(f.limit) : wide(f.limit, f.name === "projectTitle" ? t : "")]),
  );
  const response = await fn.handle(enquiry(message));
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal((await rowsAbout(t)).length, 1);
});

test("a name and title in a script newer than this Deno's Unicode (Kirat Rai, the riyal sign) are stored and reach the studio whole", async () => {
  await using fn = setup();
  const t = token();
  const name = "\u{16D43}\u{16D4A}\u{16D4C} \u20C1";
  const response = await fn.handle(enquiry({ ...valid(t), name, projectTitle: `Album \u{16D43}\u{16D4A} ${t}` }));
  assert.equal(response.status, 200, await response.clone().text());
  const studio = (await mailsAbout(t)).find((m) => m.to === STUDIO_INBOX)!;
  assert.match(studio.text, new RegExp(`Name: ${name}\n`, "u"));
  assert.match(studio.subject, new RegExp(`Album \u{16D43}\u{16D4A} ${t}`, "u"));
});

test("<script> and HTML from the visitor arrive escaped in the HTML mails", async () => {
  await using fn = setup();
  const t = token();
  const response = await fn.handle(
    enquiry({
      name: `<img src=x onerror=alert(1)>`,
      email: emailOf(t),
      projectTitle: `<b>${t}</b>`,
      projectDetails: `<script>alert("${t}")</script>`,
    }),
  );
  assert.equal(response.status, 200);
  const studio = (await mailsAbout(t)).find((m) => m.to === STUDIO_INBOX);
  const [confirmation] = await mailsTo(emailOf(t));
  for (const mail of [studio!, confirmation!]) assert.doesNotMatch(mail.html, /<script|<img|<b>/i);
  assert.match(studio!.html, /&lt;script&gt;alert\(&quot;/);
  assert.match(studio!.html, /&lt;img src=x/);
  assert.match(confirmation!.text, /Hi there,/, "markup is never repeated to the visitor's address");
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

test("the same idempotency key with another message gets 409 with a clear message, and the first message is kept", async () => {
  await using fn = setup();
  const t = token();
  const key = crypto.randomUUID();
  assert.equal((await fn.handle(enquiry(valid(t), { [ENQUIRY_HEADERS.idempotencyKey]: key }))).status, 200);
  const other = await fn.handle(
    enquiry({ ...valid(t), projectDetails: "something else entirely" }, { [ENQUIRY_HEADERS.idempotencyKey]: key }),
  );
  assert.equal(other.status, 409);
  const body = await other.json();
  assert.equal(body.code, "idempotency-conflict");
  assert.match(body.message, /already used for a different enquiry/);
  const rows = await rowsAbout(t);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.project_details, `Four songs ${t}`);
});

test("the same message from the same sender under other keys (the other path, a reload, a second tab) is the same enquiry: one row, one pair of mails", async () => {
  await using fn = setup();
  const t = token();
  const sender = client();
  const send = (message: ReturnType<typeof valid>) =>
    fn.handle(enquiry(message, { [ENQUIRY_HEADERS.idempotencyKey]: crypto.randomUUID(), "cf-connecting-ip": sender }));
  // Two at once (a no-JavaScript post still on its way and the hydrated page's send), then one later
  // with the address spelled in other case.
  const [first, second] = await Promise.all([send(valid(t)), send(valid(t))]);
  const third = await send({ ...valid(t), email: emailOf(t).toUpperCase() });
  const bodies = await Promise.all([first, second, third].map((r) => r.json()));
  assert.deepEqual([first.status, second.status, third.status], [200, 200, 200]);
  assert.equal(new Set(bodies.map((b) => b.id)).size, 1);
  assert.equal((await rowsAbout(t)).length, 1);
  assert.equal((await mailsAbout(t)).length, 2);
  // Another message from the same visitor is another enquiry.
  assert.equal((await send({ ...valid(t), projectDetails: `Two more songs ${t}` })).status, 200);
  assert.equal((await rowsAbout(t)).length, 2);
});

test("the same message is recognised across paths: a form post's CRLF line breaks and a script's LF, decomposed and composed letters", async () => {
  await using fn = setup();
  const t = token();
  const sender = client();
  const send = (message: ReturnType<typeof valid>) =>
    fn.handle(enquiry(message, { [ENQUIRY_HEADERS.idempotencyKey]: crypto.randomUUID(), "cf-connecting-ip": sender }));
  const scripted = { ...valid(t), name: "Zo\u00eb", projectDetails: `Four songs ${t}\nand a bonus track` };
  const posted = { ...scripted, name: "Zoe\u0308", projectDetails: scripted.projectDetails.replace("\n", "\r\n") };
  const [first, second] = [await send(scripted), await send(posted)];
  assert.deepEqual([first.status, second.status], [200, 200]);
  assert.equal((await first.json()).id, (await second.json()).id);
  const rows = await rowsAbout(t);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.project_details, scripted.projectDetails);
  assert.equal((await mailsAbout(t)).length, 2);
});

test("answers before the mails are sent, and sends them afterwards", async () => {
  await using fn = setup();
  const t = token();
  const response = await fn.handler(enquiry(valid(t)));
  assert.equal(response.status, 200);
  assert.equal(fn.background.length, 1, "the mails are background work");
  await Promise.all(fn.background.splice(0));
  assert.equal((await mailsAbout(t)).length, 2);
});

test("logs one structured line per request without personal data", async () => {
  await using fn = setup();
  const t = token();
  await fn.handle(enquiry(valid(t)));
  const requestLines = fn.lines.filter((l) => "status" in l && "method" in l);
  assert.equal(requestLines.length, 1);
  const line = JSON.stringify(fn.lines);
  assert.match(line, /"status":200/);
  assert.doesNotMatch(line, /Ada|ada-|Debut EP|2001:db8/);
});

test("answers only on its own paths: others are 404, a request target naming another host is 400", async () => {
  await using fn = setup();
  for (const path of [
    "/evil/send-contact-email",
    "/functions/v1/send-contact-email/",
    "/functions/v1/other/send-contact-email",
    "/send-contact-email/x",
    "/",
  ]) {
    const t = token();
    const response = await fn.handle(new Request(`http://localhost${path}`, enquiry(valid(t))));
    assert.equal(response.status, 404, path);
    assert.equal((await rowsAbout(t)).length, 0, path);
  }
  for (const path of ["/send-contact-email", "/functions/v1/send-contact-email"]) {
    const t = token();
    assert.equal((await fn.handle(new Request(`http://localhost${path}`, enquiry(valid(t))))).status, 200, path);
  }
  const t = token();
  const elsewhere = new Request("http://other.example/functions/v1/send-contact-email", enquiry(valid(t)));
  elsewhere.headers.set("host", "localhost");
  assert.equal((await fn.handle(elsewhere)).status, 400);
  assert.equal((await rowsAbout(t)).length, 0);
});

test("any body, any headers: a row is stored only when the answer is 200", async () => {
  await using fn = setup({}, { afterEnquiry: false });
  const field = fc.oneof(fc.string({ maxLength: 30 }), fc.constant(undefined), fc.integer(), fc.constant(null));
  const bodies = fc.oneof(
    fc.record({
      name: field,
      email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 20 })),
      projectTitle: field,
      projectDetails: field,
    }),
    fc.string({ maxLength: 60 }),
    fc.jsonValue({ maxDepth: 2 }),
  );
  await fc.assert(
    fc.asyncProperty(
      bodies,
      fc.constantFrom("application/json", "text/plain", "application/json; charset=utf-16"),
      fc.constantFrom("5000", "1", "x", "0x10"),
      async (body, type, fill) => {
        const t = token();
        const payload =
          typeof body === "object" && body !== null && !Array.isArray(body) && "name" in body
            ? { ...body, projectTitle: `${String(body.projectTitle ?? "")} ${t}` }
            : body;
        const response = await fn.handle(
          enquiry(typeof payload === "string" ? payload : JSON.stringify(payload), {
            "content-type": type,
            [ENQUIRY_HEADERS.fillMs]: fill,
          }),
        );
        const stored = (await db`select count(*)::int as n from contact_enquiries where project_title like ${"%" + t}`)[0]!.n;
        assert.ok(response.status === 200 || stored === 0, `${response.status} stored ${stored}`);
        assert.ok(response.status < 500, `never 5xx: ${response.status}`);
      },
    ),
    { numRuns: 60 },
  );
});
