// Limits and floods: per-sender limits that a caller cannot dodge, confirmations that cannot be aimed
// at a stranger, floods that end, and budgets that bound what an anonymous caller can store.
import assert from "node:assert/strict";
import fc from "fast-check";
import postgres from "postgres";
import { ENQUIRY_HEADERS } from "../../supabase/functions/_shared/contact-message.ts";
import { senderOf } from "../../supabase/functions/send-contact-email/client-address.ts";
import { STORAGE_RETRY_AFTER_SECONDS } from "../../supabase/functions/send-contact-email/enquiry.ts";
import { mailboxOf } from "../../supabase/functions/send-contact-email/mailbox.ts";
import {
  allMail,
  attemptsAbout,
  callRedeliver,
  client,
  DATABASE_URL,
  db,
  enquiry,
  rawHeader,
  rowsAbout,
  setup,
  STUDIO_INBOX,
  test,
  token,
  valid,
} from "./support.ts";

const clearGlobal = () => db`delete from contact_rate_limits where bucket like 'global:%'`;

test("returns 429 with Retry-After after 5 enquiries from one client in the window", async () => {
  await using fn = setup();
  const t = token();
  const ip = client();
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
  await using fn = setup({ RATE_LIMIT_CLIENT_WINDOW_SECONDS: "2" }, { afterEnquiry: false });
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

test("one IPv6 network (/64) is one sender: new addresses from it do not escape the per-client limit; another network is another sender", async () => {
  await using fn = setup({ RATE_LIMIT_PER_CLIENT: "1" });
  const net = `2001:db8:${(Date.now() % 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
  const t = token();
  assert.equal((await fn.handle(enquiry(valid(`${t}-a`), { "cf-connecting-ip": `${net}::1` }))).status, 200);
  for (const [i, host] of ["::2", ":ffff:ffff:ffff:ffff", ":0:0:0:abcd"].entries())
    assert.equal((await fn.handle(enquiry(valid(`${t}-${i}`), { "cf-connecting-ip": `${net}${host}` }))).status, 429, host);
  assert.equal(
    (await fn.handle(enquiry(valid(`${t}-other`), { "cf-connecting-ip": `${net.replace(/:[0-9a-f]+$/, ":1")}::1` }))).status,
    200,
  );
});

test("senderOf: any two addresses of one /64 are one sender, of two /64s two; IPv4 and IPv4-mapped are the address", () => {
  const group = fc.integer({ min: 0, max: 0xffff });
  const groups = (n: number) => fc.array(group, { minLength: n, maxLength: n });
  fc.assert(
    fc.property(groups(4), groups(4), groups(4), (prefix, a, b) => {
      const write = (g: number[]) => g.map((x) => x.toString(16)).join(":");
      assert.equal(senderOf(write([...prefix, ...a])), senderOf(write([...prefix, ...b])));
      assert.equal(senderOf(write([...prefix, ...a])), senderOf(`[${write([...prefix, ...b]).toUpperCase()}]`));
      const other = [...prefix.slice(0, 3), (prefix[3]! + 1) % 0x10000];
      assert.notEqual(senderOf(write([...prefix, ...a])), senderOf(write([...other, ...a])));
    }),
    { numRuns: 300 },
  );
  assert.equal(senderOf("198.51.100.7"), "198.51.100.7");
  assert.equal(senderOf("::ffff:198.51.100.7"), "198.51.100.7");
  assert.equal(senderOf("2001:db8::1"), senderOf("2001:db8:0:0:ffff::"));
  assert.equal(senderOf("64:ff9b::198.51.100.7"), "198.51.100.7", "NAT64");
  assert.equal(senderOf("2002:c633:6407:1::1"), "198.51.100.7", "6to4");
  assert.equal(senderOf("2002:c633:6407:ffff::1"), "198.51.100.7", "6to4, another of its subnets");
  assert.equal(senderOf("::ffff:0:198.51.100.7"), "198.51.100.7");
  // Whatever is not an address in its usual form is one sender, all together.
  const odd = ["not an address", "001.2.3.4", "16909060", "0x01020304", "1.2.3.4:80", "2001:db8::x1", ":::9", "１.２.３.４"];
  assert.equal(new Set(odd.map(senderOf)).size, 1);
});

test("a spoofed X-Forwarded-For does not escape the per-client limit", async () => {
  await using fn = setup({ RATE_LIMIT_PER_CLIENT: "1" });
  const ip = client();
  const t = token();
  assert.equal((await fn.handle(enquiry(valid(`${t}-a`), { "cf-connecting-ip": ip, "x-forwarded-for": "1.1.1.1" }))).status, 200);
  assert.equal((await fn.handle(enquiry(valid(`${t}-b`), { "cf-connecting-ip": ip, "x-forwarded-for": "8.8.8.8" }))).status, 429);
});

test("with X-Forwarded-For as the platform's header, the entry the platform appended is the sender: what a caller prepends changes nothing", async () => {
  await using fn = setup({ CLIENT_IP_HEADER: "x-forwarded-for", CLIENT_IP_TRUSTED_HOPS: "1", RATE_LIMIT_PER_CLIENT: "1" });
  const t = token();
  const caller = client();
  const send = (forged: string, i: number) => {
    const request = enquiry(valid(`${t}-${i}`), { "x-forwarded-for": `${forged}, ${caller}` });
    request.headers.delete("cf-connecting-ip");
    return fn.handle(request);
  };
  assert.equal((await send("10.0.0.1", 0)).status, 200);
  assert.equal((await send("10.0.0.2", 1)).status, 429);
});

test("visitors without a trustworthy address do not share a per-client limit (only the global cap applies), and it is logged", async () => {
  await using fn = setup({ RATE_LIMIT_PER_CLIENT: "1" }, { afterEnquiry: false });
  const t = token();
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    const request = enquiry({ ...valid(`${t}-${i}`), email: `v${i}-${t.toLowerCase()}@example.com` });
    request.headers.delete("cf-connecting-ip");
    statuses.push((await fn.handle(request)).status);
  }
  assert.deepEqual(statuses, [200, 200, 200]);
  assert.ok(fn.lines.some((l) => l.client === "unknown"));
  const seen = fn.lines.find((l) => l.event === "client-address-headers");
  assert.deepEqual(seen?.present, [], "names the address headers that arrived (none here)");
});

test("past the global rate an enquiry is still stored, but its mails are held for the digest", async () => {
  await clearGlobal();
  await using fn = setup({ RATE_LIMIT_GLOBAL: "1" }, { afterEnquiry: false });
  assert.equal((await fn.handle(enquiry(valid(token())))).status, 200);
  const t = token();
  assert.equal((await fn.handle(enquiry(valid(t)))).status, 200);
  const [row] = await rowsAbout(t);
  assert.equal(row!.held, true);
  assert.deepEqual(
    row!.deliveries.map((d: { status: string }) => d.status),
    ["held", "held"],
  );
  await clearGlobal();
});

test("a mailbox's confirmations are counted whatever its spelling (case, plus-tag, IDN): one sender's spellings count once, many senders' stop at the day's bound; every enquiry is still stored and told to the studio", async () => {
  await using fn = setup();
  const t = token().toLowerCase();
  const spellings = [
    `once-${t}@bücher.example`,
    `Once-${t}+a@BÜCHER.example`,
    `once-${t}+b@xn--bcher-kva.example`,
    `ONCE-${t}@xn--bcher-kva.example`,
  ];
  const confirmationsTo = async () => (await allMail()).filter((m) => m.envelope.to.some((to) => to.toLowerCase().includes(`once-${t}`)));
  // One sender, every spelling: one confirmation.
  const sender = client();
  for (const [i, email] of spellings.entries()) {
    assert.equal((await fn.handle(enquiry({ ...valid(`${t}-${i}`), email }, { "cf-connecting-ip": sender }))).status, 200, email);
  }
  const one = await confirmationsTo();
  assert.equal(one.length, 1, JSON.stringify(one.map((m) => m.envelope.to)));
  assert.equal(rawHeader(one[0]!, "To"), `once-${t}@xn--bcher-kva.example`, "stored and sent in the domain's ASCII form");
  // A sender each: the mailbox's bound of the day (decision 031), three in all.
  for (const [i, email] of spellings.entries()) {
    assert.equal((await fn.handle(enquiry({ ...valid(`${t}-others-${i}`), email }))).status, 200, email);
  }
  assert.equal((await confirmationsTo()).length, 3);
  const mails = await allMail();
  assert.equal(mails.filter((m) => m.to === STUDIO_INBOX && m.text.includes(t)).length, 8);
  assert.equal((await rowsAbout(t)).length, 8);
});

test("the spellings a provider delivers to one account are one mailbox (Gmail's dots, Proton's dots, hyphens, underscores and domains); others stay apart", () => {
  const one = (addresses: string[]) => assert.equal(new Set(addresses.map(mailboxOf)).size, 1, JSON.stringify(addresses));
  one(["victim@gmail.com", "vic.tim@gmail.com", "Victim+x@googlemail.com", "v.i.c.t.i.m@gmail.com"]);
  one(["victim@proton.me", "vic.tim@proton.me", "vic-tim@protonmail.com", "vic_tim+news@pm.me", "VICTIM@protonmail.ch"]);
  one(["ic1@icloud.com", "ic1@me.com", "IC1+x@mac.com"]);
  one(["ya-1@yandex.ru", "ya.1@ya.ru", "ya-1@yandex.com"]);
  one(["victim@fastmail.com", "x@victim.fastmail.com", "y@victim.fastmail.com"]);
  assert.notEqual(mailboxOf("vic.tim@outlook.com"), mailboxOf("victim@outlook.com"), "dots count at Outlook");
});

test("N senders × M enquiries aimed at one victim: the victim gets at most three confirmations a day; each sender's confirmations end at the daily cap", async () => {
  await using fn = setup({ RATE_LIMIT_PER_CLIENT: "5" });
  const t = token().toLowerCase();
  const victim = `victim-${t}@example.com`;
  let stored = 0;
  for (let sender = 0; sender < 8; sender++) {
    for (let i = 0; i < 5; i++) {
      const response = await fn.handle(
        enquiry(
          { ...valid(`${t}-${sender}-${i}`), email: i % 2 ? victim.replace("@", `+${sender}${i}@`) : victim.toUpperCase() },
          { "cf-connecting-ip": `198.18.${sender}.${t.length}` },
        ),
      );
      if (response.status === 200) stored++;
    }
  }
  assert.equal(stored, 40, "every enquiry within its sender's limit is stored");
  const toVictim = (await allMail()).filter((m) => m.envelope.to.some((to) => to.toLowerCase().startsWith(`victim-${t}`)));
  assert.equal(toVictim.length, 3, "the mailbox's bound of the day in all, whatever the spelling and the senders");

  // One sender, many different mailboxes: confirmations stop at CONFIRMATIONS_PER_SENDER_PER_DAY (3).
  const sender = client();
  await using roomy = setup({ RATE_LIMIT_PER_CLIENT: "20" });
  for (let i = 0; i < 6; i++) {
    assert.equal(
      (await roomy.handle(enquiry({ ...valid(`${t}-spread-${i}`), email: `spread${i}-${t}@example.com` }, { "cf-connecting-ip": sender })))
        .status,
      200,
    );
  }
  const statuses = (await attemptsAbout(`${t}-spread`)).filter((d) => d.kind === "confirmation").map((d) => d.status);
  assert.deepEqual(statuses.filter((s) => s === "sent").length, 3);
  assert.deepEqual(statuses.filter((s) => s === "suppressed").length, 3);
  assert.equal(
    (await allMail()).filter((m) => m.to === STUDIO_INBOX && m.text.includes(`${t}-spread`)).length,
    6,
    "the studio hears of all six",
  );
});

test("a flood from many senders: the real visitor's enquiry is stored and in the first digest, mail stays bounded, and hold mode ends within one window of the flood ending", async () => {
  const t = token();
  await clearGlobal();
  await using fn = setup(
    { RATE_LIMIT_GLOBAL: "5", RATE_LIMIT_PER_CLIENT: "3", RATE_LIMIT_GLOBAL_WINDOW_SECONDS: "4" },
    { afterEnquiry: false },
  );
  const mailsBefore = (await allMail()).length;
  // 40 senders, 3 enquiries each (their own limit), all to the same victim address; each an IPv6
  // network of its own, in a range no other test uses.
  const net = crypto.getRandomValues(new Uint16Array(1))[0]!.toString(16);
  const flood = [];
  for (let sender = 0; sender < 40; sender++) {
    for (let i = 0; i < 3; i++) {
      flood.push(
        fn.handle(
          enquiry(
            { ...valid(`${t}-flood-${sender}-${i}`), email: `victim-${t.toLowerCase()}@example.com` },
            { "cf-connecting-ip": `2001:db8:${net}:f${sender.toString(16)}::1` },
          ),
        ),
      );
    }
  }
  const statuses = (await Promise.all(flood)).map((r) => r.status);
  assert.deepEqual([...new Set(statuses)], [200], "each sender within their own limit is stored");
  const real = await fn.handle(
    enquiry({ ...valid(`${t}-real`), email: `real-${t.toLowerCase()}@example.com` }, { "cf-connecting-ip": "192.0.2.250" }),
  );
  assert.equal(real.status, 200, "the real visitor is not refused");
  assert.equal((await rowsAbout(`${t}-real`)).length, 1);
  assert.equal((await rowsAbout(`${t}-flood`)).length, 120);
  assert.equal(
    fn.lines.filter((l) => l.held === true && l.level === "warn").length,
    1,
    "holds are logged: one warning per interval, the rest counted",
  );

  const report = await (await callRedeliver(fn)).json();
  assert.ok(report.digested >= 100, JSON.stringify(report));
  const mails = (await allMail()).slice(mailsBefore);
  const digest = mails.find((m) => /held during a busy period/.test(m.subject) && m.text.includes(t))!;
  assert.ok(digest, "the studio gets one digest");
  assert.match(digest.text, new RegExp(`${t}-real`), "the real enquiry is in the first digest");
  const about = mails.filter((m) => m.text.includes(t) || m.subject.includes(t));
  // At most the senders the global rate allows (5), each within its own limit (3), mailed one by one;
  // the rest in one digest; one confirmation to the victim, one to the real visitor once released.
  assert.ok(about.length <= 5 * 3 + 1 + 2, `mails stay bounded: ${about.length} for 121 enquiries`);
  assert.ok(about.filter((m) => m.to.startsWith("victim-")).length <= 1, "the victim address gets at most one confirmation");

  // The flood is over: within one window (4 s here) enquiries are no longer held.
  await new Promise((r) => setTimeout(r, 4_100 * 2));
  const after = token();
  assert.equal((await fn.handle(enquiry(valid(after), { "cf-connecting-ip": "192.0.2.251" }))).status, 200);
  assert.equal((await rowsAbout(after))[0]!.held, false, "hold mode ended");
  await clearGlobal();
});

test("a steady trickle from a few senders, each within its own limit, never holds the site: senders count once per window", async () => {
  await clearGlobal();
  // Windows of a day, so that the test runs inside one. Windows are aligned (to the epoch): right after
  // a boundary, a sender seen on both sides counts in both, the earlier one fading out over the window
  // (with 10-minute windows, this test failed when it ran across one).
  const oneWindow = { RATE_LIMIT_CLIENT_WINDOW_SECONDS: "86400", RATE_LIMIT_GLOBAL_WINDOW_SECONDS: "86400" };
  await using fn = setup({ RATE_LIMIT_GLOBAL: "10", RATE_LIMIT_PER_CLIENT: "5", ...oneWindow }, { afterEnquiry: false });
  const t = token();
  // 6 senders × 5 enquiries = 30 enquiries in the window, 3 times the global limit, but only 6 senders.
  for (let round = 0; round < 5; round++) {
    for (let sender = 0; sender < 6; sender++) {
      assert.equal(
        (
          await fn.handle(
            enquiry(
              { ...valid(`${t}-${sender}-${round}`), email: `trickle${sender}-${round}-${t.toLowerCase()}@example.com` },
              { "cf-connecting-ip": `198.20.${sender}.9` },
            ),
          )
        ).status,
        200,
      );
    }
  }
  const rows = await rowsAbout(t);
  assert.equal(rows.length, 30);
  assert.ok(
    rows.every((r) => r.held === false),
    "nothing held",
  );
  const confirmations = (await attemptsAbout(t)).filter((d) => d.kind === "confirmation").map((d) => d.status);
  assert.equal(confirmations.filter((s) => s === "sent").length, 18, "visitors get confirmations (3 a day per sender)");
  await clearGlobal();
});

test("paused confirmations go when the flood ends, however long it lasted (only their mailbox's bound withholds one); one whose address became undeliverable meanwhile is dropped; the studio has every enquiry", async () => {
  await clearGlobal();
  const t = token();
  {
    await using flood = setup({ RATE_LIMIT_GLOBAL: "1" }, { afterEnquiry: false });
    await flood.handle(enquiry(valid(token()), { "cf-connecting-ip": "198.21.9.9" })); // the one sender under the limit
    for (let i = 0; i < 4; i++)
      await flood.handle(
        enquiry({ ...valid(`${t}-${i}`), email: `paused${i}-${t.toLowerCase()}@example.com` }, { "cf-connecting-ip": `198.21.${i}.1` }),
      );
  }
  // The flood lasted: two were paused hours ago, one days ago; one's address bounced meanwhile.
  await db`update contact_enquiries set created_at = now() - interval '2 hours' where project_title in (${`Debut EP ${t}-0`}, ${`Debut EP ${t}-1`})`;
  await db`update contact_enquiries set created_at = now() - interval '3 days' where project_title = ${`Debut EP ${t}-2`}`;
  await db`insert into private.undeliverable_addresses (address, reason, source) values (${`paused3-${t.toLowerCase()}@example.com`}, 'test', 'bounced')`;
  await clearGlobal();
  await using fn = setup({ RATE_LIMIT_GLOBAL: "1000" }, { afterEnquiry: false });
  const report = await (await callRedeliver(fn)).json();
  assert.ok(report.released >= 3, JSON.stringify(report));
  const confirmations =
    await db`select e.project_title, d.status, d.last_error from contact_deliveries d join contact_enquiries e on e.id = d.enquiry_id
    where d.kind = 'confirmation' and e.project_title like ${"%" + t + "%"} order by e.project_title`;
  assert.deepEqual(
    confirmations.map((c) => c.status),
    ["sent", "sent", "sent", "suppressed"],
  );
  assert.match(confirmations[3]!.last_error, /bounced, complained or was refused/);
  const studio =
    await db`select d.status from contact_deliveries d join contact_enquiries e on e.id = d.enquiry_id where d.kind = 'studio' and e.project_title like ${"%" + t + "%"}`;
  assert.ok(
    studio.every((s) => s.status === "sent"),
    "the studio got them (in the digest)",
  );
});

test("budgets: past the enquiries a day, and past the held enquiries, the answer is 503 busy", async () => {
  const [{ n: today }] =
    (await db`select count(*)::int as n from contact_enquiries where created_at > now() - interval '1 day'`) as unknown as [{ n: number }];
  await using full = setup({ ENQUIRIES_PER_DAY_MAX: String(today) }, { afterEnquiry: false });
  const t = token();
  const busy = await full.handle(enquiry(valid(t)));
  assert.equal(busy.status, 503);
  const body = await busy.json();
  assert.equal(body.code, "busy");
  assert.ok(Number(busy.headers.get("retry-after")) > 0);
  assert.equal((await rowsAbout(t)).length, 0);
  // Load anyone can cause: a warning once per interval, the rest counted, never an error line per request.
  for (let i = 0; i < 59; i++) assert.equal((await full.handle(enquiry(valid(`${t}-${i}`)))).status, 503);
  assert.deepEqual(
    full.lines.filter((l) => l.level === "error"),
    [],
  );
  assert.deepEqual(
    full.lines.filter((l) => l.level === "warn").map((l) => l.outcome),
    ["busy"],
  );
  assert.equal(full.lines.filter((l) => l.outcome === "busy").length, 60, "each refusal is still its request's info line");

  await clearGlobal();
  const [{ n: held }] =
    (await db`select count(*)::int as n from contact_deliveries where kind = 'studio' and status = 'held'`) as unknown as [{ n: number }];
  await using holding = setup({ RATE_LIMIT_GLOBAL: "1", HELD_ENQUIRIES_MAX: String(held + 1) }, { afterEnquiry: false });
  const h = token();
  const statuses = [];
  for (let i = 0; i < 3; i++)
    statuses.push((await holding.handle(enquiry(valid(`${h}-${i}`), { "cf-connecting-ip": `198.22.${i}.1` }))).status);
  assert.deepEqual(statuses, [200, 200, 503], "stored, held, then the held budget is spent");
  assert.deepEqual(
    (await rowsAbout(h)).map((r) => r.held),
    [false, true],
  );
  await db`update contact_deliveries set status = 'sent' where enquiry_id in (select id from contact_enquiries where project_title like ${"%" + h + "%"})`;
  await clearGlobal();
});

test("a body that never arrives (Content-Length larger than what is sent) is answered 408 within the deadline", async () => {
  await using fn = setup({ BODY_TIMEOUT_MS: "1000" });
  await using server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, fn.handle);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  const started = Date.now();
  await conn.write(
    new TextEncoder().encode(
      `POST /functions/v1/send-contact-email HTTP/1.1\r\nHost: 127.0.0.1:${server.addr.port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n` +
        `${ENQUIRY_HEADERS.fillMs}: 5000\r\n\r\n{"name":`,
    ),
  );
  const buffer = new Uint8Array(4096);
  const read = await conn.read(buffer);
  conn.close();
  assert.match(new TextDecoder().decode(buffer.subarray(0, read ?? 0)), /^HTTP\/1\.1 408/);
  assert.ok(Date.now() - started < 4000, "answered at the deadline, not when the client gives up");
});

test("a lock held elsewhere ends the enquiry in 503 with Retry-After within seconds, never a hang, and the next one is stored", async () => {
  await using fn = setup({}, { afterEnquiry: false });
  const t = token();
  // Another connection holds what submit_enquiry waits for first for this mailbox (a stuck transaction).
  const other = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const transaction = other.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${`confirmation:${mailboxOf(valid(t).email)}`}))`;
    held();
    await released;
  });
  try {
    await holding;
    const started = performance.now();
    const response = await fn.handle(enquiry(valid(t)));
    const waited = performance.now() - started;
    assert.equal(response.status, 503);
    assert.equal(response.headers.get("retry-after"), String(STORAGE_RETRY_AFTER_SECONDS));
    assert.equal((await response.json()).status, "error");
    assert.ok(waited < 6000, `answered after ${Math.round(waited)} ms`);
    assert.equal((await rowsAbout(t)).length, 0);
  } finally {
    release();
    await transaction;
    await other.end();
  }
  assert.equal((await fn.handle(enquiry(valid(t)))).status, 200);
});
