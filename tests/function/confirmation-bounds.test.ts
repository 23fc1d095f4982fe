// The confirmation's bounds (docs/decisions/031), through the function's own handler and the real
// database: a mailbox gets at most three confirmations a day, however callers spell it, spread over
// senders or declare their fill time; one sender counts for at most one of them; a visitor's
// confirmation is withheld by others only once its mailbox's bound is reached; a declared fill time
// only tightens, and a malformed one is the tightest.
import assert from "node:assert/strict";
import fc from "fast-check";
import { ENQUIRY_HEADERS } from "../../supabase/functions/_shared/contact-message.ts";
import { mailboxOf } from "../../supabase/functions/send-contact-email/mailbox.ts";
import { client, db, enquiry, setup, test, token, valid } from "./support.ts";

/** The bound decision 031 promises, a day being the last 24 hours. */
const PER_MAILBOX_PER_DAY = 3;
const MIN_FILL_MS = 1500;
const PER_SENDER_PER_DAY = 3;
/** A quick Send's sender gets a third of it (decision 031). */
const QUICK_PER_SENDER_PER_DAY = 1;

/**
 * Stored without mail (no transport): a confirmation is then "pending", or "suppressed" with its reason.
 * What these tests store is removed when it is disposed of: mail left due would go in other tests' runs.
 */
const bounded = () => {
  const fn = setup(
    {
      MAIL_TRANSPORT: "off",
      RATE_LIMIT_PER_CLIENT: "1000",
      MIN_FILL_MS: String(MIN_FILL_MS),
      CONFIRMATIONS_PER_SENDER_PER_DAY: String(PER_SENDER_PER_DAY),
    },
    { afterEnquiry: false },
  );
  const tokens: string[] = [];
  const close = fn[Symbol.asyncDispose];
  return Object.assign(fn, {
    token() {
      const t = token();
      tokens.push(t);
      return t;
    },
    async [Symbol.asyncDispose]() {
      for (const t of tokens) await db`delete from contact_enquiries where project_title like ${`%${t}%`}`;
      await close();
    },
  });
};

type Confirmation = { id: string; mailbox: string; client_hash: string; status: string; last_error: string | null; hours_ago: number };
/** The confirmations of the enquiries about `t`, oldest first. */
const confirmationsAbout = async (t: string) =>
  (await db`select e.id, e.mailbox, e.client_hash, d.status, d.last_error,
      extract(epoch from now() - e.created_at) / 3600 as hours_ago
    from contact_enquiries e join contact_deliveries d on d.enquiry_id = e.id and d.kind = 'confirmation'
    where e.project_title like ${`%${t}%`} order by e.created_at, e.id`) as unknown as Confirmation[];
/** The enquiries about `t` made `hours` older, as if that much time had passed. */
const later = (t: string, hours: number) =>
  db`update contact_enquiries set created_at = created_at - make_interval(hours => ${hours}) where project_title like ${`%${t}%`}`;
const went = (c: Confirmation) => c.status !== "suppressed";

/** A Send from `ip` to `email` declaring `fill` (null: no fill time header); the stored confirmation. */
async function send(fn: ReturnType<typeof bounded>, t: string, email: string, ip: string, fill: string | null) {
  const request = enquiry({ ...valid(`${t}-${crypto.randomUUID().slice(0, 8)}`), email }, { "cf-connecting-ip": ip });
  if (fill === null) request.headers.delete(ENQUIRY_HEADERS.fillMs);
  else request.headers.set(ENQUIRY_HEADERS.fillMs, fill);
  const response = await fn.handle(request);
  assert.equal(response.status, 200, await response.clone().text());
  const { id } = await response.json();
  return (await confirmationsAbout(t)).find((c) => c.id === id)!;
}

/** Four spellings of mailbox `m` of run `t`: as typed, in capitals, and with two plus-tags. */
const spellingsOf = (t: string, m: number) => {
  const local = `bound${m}-${t.toLowerCase()}`;
  return [`${local}@example.com`, `${local.toUpperCase()}@EXAMPLE.com`, `${local}+a@example.com`, `${local}+${t}@example.com`];
};

const FILLS = [null, "0", "300", "1499", "1500", "9000", "999999999", "", "abc", "5e3", "0x5dc", "+9000", "9000.5", "-1"];
/** What the spec calls a quick Send: a declared fill time under MIN_FILL_MS, or a malformed one. */
const quick = (fill: string | null) => fill !== null && (!/^\d{1,9}$/.test(fill.trim()) || Number(fill) < MIN_FILL_MS);

test("property: over any sequence of senders, spellings, declared fill times and hours passing, a mailbox gets at most 3 confirmations a day, a sender at most one of them, and a visitor's is withheld only by its own sender's bounds or a full mailbox", async () => {
  await using fn = bounded();
  const step = fc.record({
    sender: fc.nat(3),
    mailbox: fc.nat(1),
    spelling: fc.nat(3),
    fill: fc.constantFrom(...FILLS),
    hoursLater: fc.constantFrom(0, 0, 0, 1, 2, 7, 23, 25),
  });
  // The same four senders in every run (each run's enquiries are removed after it, so its senders start
  // the day afresh): thousands of new senders would hold other tests' enquiries past the global rate.
  // An IPv6 /64 is one sender (client-address.ts): the fourth group tells them apart.
  const net = `2001:db8:${crypto.getRandomValues(new Uint16Array(1))[0]!.toString(16)}`;
  const senders = new Set<string>();
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
      const t = fn.token();
      try {
        await sequence(t, steps);
      } finally {
        await db`delete from contact_enquiries where project_title like ${`%${t}%`}`;
      }
    }),
    { numRuns: 100 },
  );
  assert.equal(senders.size, 4, "four senders took part");

  async function sequence(
    t: string,
    steps: { sender: number; mailbox: number; spelling: number; fill: string | null; hoursLater: number }[],
  ) {
    for (const s of steps) {
      if (s.hoursLater) await later(t, s.hoursLater);
      const email = spellingsOf(t, s.mailbox)[s.spelling]!;
      const before = (await confirmationsAbout(t)).filter((c) => c.hours_ago < 24 && went(c));
      const stored = await send(fn, t, email, `${net}:c0f${s.sender}::1`, s.fill);
      const mailbox = mailboxOf(email);
      const inMailbox = before.filter((c) => c.mailbox === mailbox);
      const senderAll = before.filter((c) => c.client_hash === stored.client_hash);
      const expectWithheld =
        inMailbox.some((c) => c.client_hash === stored.client_hash) ||
        inMailbox.length >= PER_MAILBOX_PER_DAY ||
        senderAll.length >= (quick(s.fill) ? QUICK_PER_SENDER_PER_DAY : PER_SENDER_PER_DAY);
      assert.equal(!went(stored), expectWithheld, `${JSON.stringify(s)}: ${stored.last_error ?? stored.status}`);
      senders.add(stored.client_hash);

      const day = (await confirmationsAbout(t)).filter((c) => c.hours_ago < 24 && went(c));
      for (const m of new Set(day.map((c) => c.mailbox))) {
        const mine = day.filter((c) => c.mailbox === m);
        assert.ok(mine.length <= PER_MAILBOX_PER_DAY, `${m}: ${mine.length} confirmations in a day`);
        assert.equal(new Set(mine.map((c) => c.client_hash)).size, mine.length, `${m}: one sender counted twice`);
      }
    }
  }
});

test("a caller who writes first to an address takes nothing from its owner: the visitor's own confirmation goes, at once and later in the day", async () => {
  await using fn = bounded();
  const t = fn.token();
  const victim = `first-${t.toLowerCase()}@example.com`;
  // A stranger writes first, fast (a bot) and then at a person's pace.
  const stranger = client();
  assert.equal(went(await send(fn, t, victim, stranger, "0")), true);
  assert.equal(went(await send(fn, t, victim.replace("@", "+x@"), stranger, "9000")), false, "one per sender and mailbox");
  // The visitor, from their own address, a minute later: confirmed, quick or not.
  assert.equal(went(await send(fn, t, victim, client(), "300")), true);
  await later(t, 3);
  assert.equal(went(await send(fn, t, victim, client(), "7000")), true, "a third sender, hours later");
  // The mailbox's bound reached: only now is anyone's withheld.
  const last = await send(fn, t, victim, client(), "7000");
  assert.equal(last.last_error, "suppressed: the mailbox's confirmations for the day are used up");
});

test("declaring a slow fill time loosens nothing: one mailbox gets 3 confirmations over a day of senders two hours apart, not one an hour", async () => {
  await using fn = bounded();
  const t = fn.token();
  const victim = `slow-${t.toLowerCase()}@example.com`;
  const confirmed: boolean[] = [];
  for (let i = 0; i < 12; i++) {
    confirmed.push(went(await send(fn, t, victim, client(), "9000")));
    await later(t, 2);
  }
  assert.deepEqual(confirmed, [true, true, true, false, false, false, false, false, false, false, false, false]);
});

test("a malformed fill time counts as the tightest: its sender's second confirmation of the day is withheld, as a quick Send's; a slow or absent one is held to the ordinary bound", async () => {
  await using fn = bounded();
  let seq = Math.floor(Math.random() * 0xf00);
  for (const [fill, expected] of [
    ["abc", [true, false]],
    ["9000.5", [true, false]],
    ["300", [true, false]],
    ["9000", [true, true]],
    [null, [true, true]],
  ] as const) {
    const t = fn.token();
    // A sender of its own (an IPv6 /64) for each declaration.
    const sender = `2001:db8:fa11:${(seq++).toString(16)}${t.length.toString(16)}::1`;
    const results = [];
    for (const n of [1, 2]) results.push(went(await send(fn, t, `tight${n}-${t.toLowerCase()}@example.com`, sender, fill)));
    assert.deepEqual(results, expected, `fill time ${JSON.stringify(fill)}`);
  }
});
