// The schema against the contract and the code that calls it: the table's limits are the contract's
// (derived from FIELD_LIMITS, never restated), the longest address goes all the way to the mailbox, and
// every SQL function is defined once and used.
import assert from "node:assert/strict";
import { columnOf, CONTACT_FIELDS, FIELD_LIMITS, MAX_EMAIL_LENGTH } from "../../supabase/functions/_shared/contact-message.ts";
import { db, enquiry, mailsTo, rowsAbout, setup, test, token, valid } from "./support.ts";

/** Whether the table itself takes `value` in `column` (the row is rolled back either way). */
async function tableTakes(column: string, value: string): Promise<boolean> {
  const row = {
    idempotency_key: crypto.randomUUID(),
    name: "Ada",
    email: "ada@example.com",
    mailbox: "ada@example.com",
    project_title: "Demo",
    project_details: "",
    client_hash: "",
    [column]: value,
  };
  const rolledBack = new Error("rolled back");
  try {
    await db.begin(async (tx) => {
      await tx`insert into contact_enquiries ${tx(row)}`;
      throw rolledBack;
    });
  } catch (error) {
    if (error === rolledBack) return true;
    if ((error as { code?: string }).code === "23514") return false; // check_violation
    throw error;
  }
  return true;
}

test("each field's limit in the table is the contract's: FIELD_LIMITS characters (code points) are stored, one more is refused", async () => {
  for (const field of CONTACT_FIELDS) {
    const limit = FIELD_LIMITS[field];
    // A character of two UTF-16 units: the table counts what a person sees, as the contract does.
    assert.equal(await tableTakes(columnOf(field), "🎤".repeat(limit)), true, `${field}: ${limit}`);
    assert.equal(await tableTakes(columnOf(field), "🎤".repeat(limit + 1)), false, `${field}: ${limit + 1}`);
  }
  // The e-mail limit is the standard's, not a choice: RFC 5321 (4.5.3.1.3) caps a path at 256 octets, "<" and ">" included.
  assert.equal(FIELD_LIMITS.email, 256 - "<>".length);
});

/** An address of exactly `length` characters (RFC 5321: a local part of at most 64), unique to `t`. */
const addressOf = (t: string, length: number) => {
  const local = `l-${t.toLowerCase()}`.padEnd(64, "a");
  const domain = `${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(length - 64 - 1 - 63 - 1 - 63 - 1 - 4)}.com`;
  return `${local}@${domain}`;
};

test("the longest address the contract takes (254, RFC 5321) is stored and mailed by the local stack; one more is refused", async () => {
  await using fn = setup();
  const t = token();
  const longest = addressOf(t, MAX_EMAIL_LENGTH);
  assert.equal(longest.length, 254);
  const response = await fn.handle(enquiry({ ...valid(t), email: longest }));
  assert.equal(response.status, 200);
  const [row] = await rowsAbout(t);
  assert.equal(row!.email, longest);
  assert.deepEqual(
    row!.deliveries.map((d: { status: string }) => d.status),
    ["sent", "sent"],
  );
  assert.equal((await mailsTo(longest)).length, 1, "the confirmation reached the catcher");

  const over = addressOf(token(), MAX_EMAIL_LENGTH + 1);
  assert.equal((await fn.handle(enquiry({ ...valid(token()), email: over }))).status, 422);
});

test("every SQL function is defined once (no overloads) and used: by store.ts, or by another SQL function", async () => {
  const functions = (await db`select p.proname as name, count(*)::int as versions from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'private' group by 1 order by 1`) as unknown as {
    name: string;
    versions: number;
  }[];
  assert.ok(functions.length > 10, "the functions are there");
  const store = await Deno.readTextFile(new URL("../../supabase/functions/send-contact-email/store.ts", import.meta.url));
  const bodies = (await db`select p.proname as name, p.prosrc as body from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'private'`) as unknown as { name: string; body: string }[];
  for (const { name, versions } of functions) {
    assert.equal(versions, 1, `private.${name} has one definition`);
    const called = new RegExp(`private\\.${name}\\(`);
    const used = called.test(store) || bodies.some((f) => f.name !== name && called.test(f.body));
    assert.ok(used, `private.${name} is called by store.ts or another SQL function`);
  }
});
