// The recipe for a new field (README, "Adding a field to the form"; docs/decisions/022), tried on a copy:
// an optional entry added to a copy of the contract (a field the real one does not have: "How you heard
// of us") reaches every layer that reads the contract
// without any other change to them. The copies of the contract, store.ts and emails.ts are loaded as
// modules of their own (data: URLs, the copies' imports pointed at each other); the schema is the real
// migrations in a scratch database, plus the recipe's one `alter table`.
import assert from "node:assert/strict";
import { migrate } from "../../scripts/local-stack/migrate.mjs";
import { CONTACT_FIELDS, emptyMessage } from "../../supabase/functions/_shared/contact-message.ts";
import { loadConfig } from "../../supabase/functions/send-contact-email/config.ts";
import { mailboxOf } from "../../supabase/functions/send-contact-email/mailbox.ts";
import { DATABASE_URL, db, emailOf, test, testEnv, token } from "./support.ts";

const FUNCTIONS = new URL("../../supabase/functions/", import.meta.url);
const ENTRY = `{ name: "heardOf", label: "How you heard of us", required: false, limit: 30, lines: "one", autocomplete: "off", inputType: "text" },`;
/** The recipe's migration: the column (the name in snake_case), nullable, with the contract's limit. */
const COLUMN = "alter table public.contact_enquiries add column heard_of text check (char_length(heard_of) <= 30)";

const source = (path: string) => Deno.readTextFile(new URL(path, FUNCTIONS));
const moduleUrl = (code: string) => `data:application/typescript;base64,${btoa(String.fromCodePoint(...new TextEncoder().encode(code)))}`;

/** The copy: the contract with the new entry after the address, and the modules that read it. */
async function withNewField() {
  const contract = (await source("_shared/contact-message.ts")).replace(/(\{ name: "email",[^\n]*\n)/, `$1  ${ENTRY}\n`);
  assert.match(contract, /name: "heardOf"/, "the entry went into FIELDS");
  const contractUrl = moduleUrl(contract);
  const local = (code: string) =>
    code
      .replaceAll('"../_shared/contact-message.ts"', JSON.stringify(contractUrl))
      .replaceAll('"./config.ts"', JSON.stringify(new URL("send-contact-email/config.ts", FUNCTIONS).href));
  return {
    contract: await import(contractUrl),
    store: await import(moduleUrl(local(await source("send-contact-email/store.ts")))),
    emails: await import(moduleUrl(local(await source("send-contact-email/emails.ts")))),
  };
}

test("a new optional field in the contract reaches the parser, the stored row, every claim and the mails, with one `alter table`", async () => {
  const { contract, store: storeModule, emails } = await withNewField();
  const t = token();
  const heardOf = "Podcast, episode 7946";
  const message = {
    ...emptyMessage(),
    name: "Ada Lovelace",
    email: emailOf(t),
    heardOf,
    projectTitle: `New field ${t}`,
    projectDetails: "Four songs",
  };

  // The contract: the form's order, optional, its limit and the one-line rules, from the entry alone.
  const after = CONTACT_FIELDS.indexOf("email") + 1;
  assert.deepEqual(contract.CONTACT_FIELDS, [...CONTACT_FIELDS.slice(0, after), "heardOf", ...CONTACT_FIELDS.slice(after)]);
  assert.ok(!contract.REQUIRED_FIELDS.includes("heardOf"));
  assert.deepEqual(contract.parseContactMessage(message), { ok: true, message });
  assert.deepEqual(contract.parseContactMessage({ ...message, heardOf: " \u200B " }), { ok: true, message: { ...message, heardOf: "" } });
  assert.deepEqual(contract.parseContactMessage({ ...message, heardOf: "1".repeat(31) }).fieldErrors, {
    heardOf: "How you heard of us must be 30 characters or fewer.",
  });
  assert.deepEqual(contract.parseContactMessage({ ...message, heardOf: "1\n2" }).fieldErrors, {
    heardOf: "How you heard of us must be a single line.",
  });

  // A scratch database with the real migrations.
  const name = `field_${t.toLowerCase()}`;
  await db.unsafe(`create database ${name}`);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  await migrate(url.href);
  const scratch = storeModule.createStore(url.href, { connectTimeoutSeconds: 2 });
  const { config } = loadConfig(new Map(Object.entries(testEnv())));
  const submit = (body: typeof message, key = crypto.randomUUID()) =>
    scratch.submit(key, body, mailboxOf(body.email), "sender", config.rateLimit, { claim: true });
  try {
    // The function ahead of its migration fails loudly, and stores nothing without the field.
    await assert.rejects(submit(message), /no column heard_of/);
    await scratch.close();
    const direct = (await import("postgres")).default(url.href, { max: 1, onnotice: () => {} });
    try {
      await direct.unsafe(COLUMN);
    } finally {
      await direct.end();
    }
    const store = storeModule.createStore(url.href, { connectTimeoutSeconds: 2 });
    try {
      // Stored, and the first mails are built from the stored row.
      const key = crypto.randomUUID();
      const stored = await store.submit(key, message, mailboxOf(message.email), "sender", config.rateLimit, { claim: true });
      assert.equal(stored.outcome, "stored");
      assert.deepEqual(
        stored.claimed.map((d: { message: typeof message }) => d.message.heardOf),
        [heardOf, heardOf],
      );
      // The same key: the same message is a duplicate, another answer to the new field a conflict; the
      // same sender's message under another key is the same enquiry only with the same answer.
      const again = (body: typeof message, k: string) =>
        store.submit(k, body, mailboxOf(body.email), "sender", config.rateLimit, { claim: false });
      assert.equal((await again(message, key)).outcome, "duplicate");
      assert.equal((await again({ ...message, heardOf: "a friend" }, key)).outcome, "conflict");
      assert.equal((await again(message, crypto.randomUUID())).outcome, "duplicate");
      const other = await again({ ...message, heardOf: "a friend" }, crypto.randomUUID());
      assert.equal(other.outcome, "stored");

      // Retries: every claim brings the field back from the row.
      const sql = (await import("postgres")).default(url.href, { max: 1, onnotice: () => {} });
      try {
        await sql`update contact_deliveries set status = 'pending', next_attempt_at = now() where enquiry_id = ${stored.enquiryId}`;
        const retried = await store.claim(stored.enquiryId, 10, 10);
        assert.deepEqual(
          retried.map((d: { message: typeof message }) => d.message),
          [message, message],
        );
        // The digest of held enquiries, too.
        await sql`update contact_deliveries set status = 'held', locked_until = null where kind = 'studio' and enquiry_id = ${stored.enquiryId}`;
        const [held] = await store.claimDigest(10);
        assert.equal(held.message.heardOf, heardOf);

        // The mails: the studio's notification and digest show it; the confirmation shows nothing typed.
        const notification = emails.studioNotification(message, { studioInbox: "studio@studio.test", enquiryId: stored.enquiryId });
        assert.match(notification.text, /^How you heard of us: Podcast, episode 7946$/m);
        assert.match(notification.html, /<th scope="row"[^>]*>How you heard of us<\/th><td dir="auto"[^>]*>Podcast, episode 7946<\/td>/);
        const digest = emails.studioDigest([held], { studioInbox: "studio@studio.test" });
        assert.match(digest.text, /^ {2}How you heard of us: Podcast, episode 7946$/m);
        const confirmation = emails.visitorConfirmation({
          to: message.email,
          studioName: "S",
          studioInbox: "s@s.test",
          enquiryId: stored.enquiryId,
        });
        assert.doesNotMatch(confirmation.text + confirmation.html, /7946/);
        // Optional and left blank: "(none)" for the studio.
        assert.match(
          emails.studioNotification({ ...message, heardOf: "" }, { studioInbox: "s@s.test", enquiryId: "x" }).text,
          /^How you heard of us: \(none\)$/m,
        );
      } finally {
        await sql.end();
      }
    } finally {
      await store.close();
    }
  } finally {
    await db.unsafe(`drop database if exists ${name} with (force)`);
  }
});
