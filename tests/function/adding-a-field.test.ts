// The recipe for a new field (README, "Adding a field to the form"; docs/decisions/022 and 030), tried on a
// copy: an optional entry added to a copy of the contract (a field the real one does not have) reaches every
// layer that reads the contract without any other change to them: a text field ("How you heard of us") and a
// select ("Budget", three options). The copy of the contract and the function's modules that read it are loaded
// as modules of their own (data: URLs, their relative imports pointed at each other); the schema is the real
// migrations in a scratch database, plus the recipe's one `alter table`. The browser's half of the select
// (the form, with and without JavaScript, and Back) is tests/e2e/adding-a-field.test.ts.
import assert from "node:assert/strict";
import { migrate } from "../../scripts/local-stack/migrate.mjs";
import { CONTACT_FIELDS, emptyMessage } from "../../supabase/functions/_shared/contact-message.ts";
import { loadConfig } from "../../supabase/functions/send-contact-email/config.ts";
import { mailboxOf } from "../../supabase/functions/send-contact-email/mailbox.ts";
import { DATABASE_URL, db, emailOf, enquiry, mailsAbout, STUDIO_INBOX, test, testEnv, token, until } from "./support.ts";

const FUNCTIONS = new URL("../../supabase/functions/", import.meta.url);
const CONTRACT = new URL("_shared/contact-message.ts", FUNCTIONS).href;
const ENTRY = `{ name: "heardOf", label: "How you heard of us", required: false, limit: 30, lines: "one", autocomplete: "off", inputType: "text" },`;
/** The recipe's migration: the column (the name in snake_case), nullable, with the contract's limit. */
const COLUMN = "alter table public.contact_enquiries add column heard_of text check (char_length(heard_of) <= 30)";

/** The select: a name no real field will take, the label and choices a studio would give it. */
const BUDGET_OPTIONS = ["Under $500", "$500 - $2000", "Over $2000"];
const SELECT_ENTRY = `{ name: "scratchBudget", label: "Budget", required: false, limit: 20, lines: "one", autocomplete: "off", inputType: "text", options: ${JSON.stringify(BUDGET_OPTIONS)} },`;
const SELECT_COLUMN = "alter table public.contact_enquiries add column scratch_budget text check (char_length(scratch_budget) <= 20)";

function moduleUrl(code: string): string {
  const bytes = new TextEncoder().encode(code);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:application/typescript;base64,${btoa(binary)}`;
}

/**
 * The copy: the contract with `entry` after the address, and `load(path)`, which loads a function module
 * (a path under supabase/functions) as it is, but for the contract: each module that reads it, itself or
 * through its imports, is loaded once more with those imports pointed at the copies.
 */
async function withNewField(entry: string) {
  const real = await Deno.readTextFile(new URL(CONTRACT));
  const contract = real.replace(/(\{ name: "email",[^\n]*\n)/, `$1  ${entry}\n`);
  assert.notEqual(contract, real, "the entry went into FIELDS");
  const urls = new Map<string, Promise<string>>([[CONTRACT, Promise.resolve(moduleUrl(contract))]]);
  const urlOf = (href: string, loading: readonly string[]): Promise<string> => {
    // A cycle (only type imports make one here) keeps the real module: types are gone at run time.
    if (loading.includes(href)) return Promise.resolve(href);
    if (!urls.has(href))
      urls.set(
        href,
        (async () => {
          const code = await Deno.readTextFile(new URL(href));
          const imports = [...new Set([...code.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1]!))];
          const resolved = imports.map((spec) => new URL(spec, href).href);
          const targets = await Promise.all(resolved.map((target) => urlOf(target, [...loading, href])));
          if (targets.every((target, i) => target === resolved[i])) return href;
          return moduleUrl(imports.reduce((out, spec, i) => out.replaceAll(`"${spec}"`, JSON.stringify(targets[i])), code));
        })(),
      );
    return urls.get(href)!;
  };
  const load = async (path: string) => await import(await urlOf(new URL(path, FUNCTIONS).href, []));
  return { contract: await load("_shared/contact-message.ts"), load };
}

/** A scratch database with the real migrations and `column`, dropped after `use`. */
async function scratchDatabase(t: string, column: string | undefined, use: (url: string) => Promise<void>) {
  const name = `field_${t.toLowerCase()}`;
  await db.unsafe(`create database ${name}`);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  try {
    await migrate(url.href);
    if (column) {
      const direct = (await import("postgres")).default(url.href, { max: 1, onnotice: () => {} });
      try {
        await direct.unsafe(column);
      } finally {
        await direct.end();
      }
    }
    await use(url.href);
  } finally {
    await db.unsafe(`drop database if exists ${name} with (force)`);
  }
}

test("a new optional field in the contract reaches the parser, the stored row, every claim and the mails, with one `alter table`", async () => {
  const { contract, load } = await withNewField(ENTRY);
  const [storeModule, emails] = [await load("send-contact-email/store.ts"), await load("send-contact-email/emails.ts")];
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

test("a select in the contract takes only its choices, and through the function is stored and shown in the studio's mail, with one `alter table`", async () => {
  const { contract, load } = await withNewField(SELECT_ENTRY);
  const t = token();
  const message = { ...emptyMessage(), name: "Ada Lovelace", email: emailOf(t), projectTitle: `Select ${t}`, projectDetails: "" };
  const chosen = BUDGET_OPTIONS[1]!;

  // The contract: optional, one of its choices or nothing, and the contract's own words for anything else.
  const after = CONTACT_FIELDS.indexOf("email") + 1;
  assert.deepEqual(contract.CONTACT_FIELDS, [...CONTACT_FIELDS.slice(0, after), "scratchBudget", ...CONTACT_FIELDS.slice(after)]);
  assert.ok(!contract.REQUIRED_FIELDS.includes("scratchBudget"));
  assert.deepEqual(contract.FIELD_SPECS.scratchBudget.options, BUDGET_OPTIONS);
  for (const option of BUDGET_OPTIONS)
    assert.equal(contract.parseContactMessage({ ...message, scratchBudget: option }).message?.scratchBudget, option);
  assert.deepEqual(contract.parseContactMessage(message), { ok: true, message: { ...message, scratchBudget: "" } });
  assert.deepEqual(contract.parseContactMessage({ ...message, scratchBudget: "A million" }).fieldErrors, {
    scratchBudget: "Budget must be one of its choices.",
  });

  await scratchDatabase(t, SELECT_COLUMN, async (databaseUrl) => {
    // The function as index.ts builds it, every module reading the copy of the contract, on the scratch database.
    const [{ loadConfig: loadCopiedConfig }, { createHandler }, { createMailer }, { createStore }] = await Promise.all(
      ["config.ts", "handler.ts", "mailer.ts", "store.ts"].map((file) => load(`send-contact-email/${file}`)),
    );
    const { config, problems, warnings } = loadCopiedConfig(
      new Map(Object.entries(testEnv({ SUPABASE_DB_URL: databaseUrl, DB_POOLER_URL: "" }))),
    );
    const store = createStore(config.databaseUrl, { connectTimeoutSeconds: 2, max: 2 });
    const mailer = createMailer(config.mail, config.mailFrom, config.mailTimeoutMs);
    const background: Promise<unknown>[] = [];
    const handler = createHandler({
      config,
      problems,
      warnings,
      store,
      mailer,
      log: () => {},
      waitUntil: (work: Promise<unknown>) => void background.push(work),
    });
    const send = async (body: object) => {
      const response = await handler(enquiry(body));
      await Promise.all(background.splice(0));
      return { status: response.status, body: await response.json() };
    };
    try {
      // A choice not in the list: refused with the contract's message, nothing stored.
      const refused = await send({ ...message, scratchBudget: "A million" });
      assert.equal(refused.status, 422);
      assert.equal(refused.body.status, "invalid");
      assert.deepEqual(refused.body.fieldErrors, { scratchBudget: "Budget must be one of its choices." });

      // One of its choices: stored in its column, and in the studio's mail; the visitor's confirmation shows nothing typed.
      const sent = await send({ ...message, scratchBudget: chosen });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      assert.equal(sent.body.status, "ok");
      const sql = (await import("postgres")).default(databaseUrl, { max: 1, onnotice: () => {} });
      try {
        assert.deepEqual(
          (await sql`select scratch_budget from contact_enquiries order by created_at`).map((r) => r.scratch_budget),
          [chosen],
        );
      } finally {
        await sql.end();
      }
      const mails = await until(async () => {
        const caught = await mailsAbout(t);
        return caught.length >= 2 ? caught : undefined;
      });
      assert.ok(mails, "the studio's notification and the visitor's confirmation");
      const notification = mails.find((m) => m.envelope.to.includes(STUDIO_INBOX))!;
      assert.match(notification.text, /^Budget: \$500 - \$2000$/m);
      assert.match(notification.html, /<th scope="row"[^>]*>Budget<\/th><td dir="auto"[^>]*>\$500 - \$2000<\/td>/);
      const confirmation = mails.find((m) => m.envelope.to.includes(message.email))!;
      assert.doesNotMatch(confirmation.text + confirmation.html, /\$500 - \$2000/);
    } finally {
      await store.close();
      await mailer?.close();
    }
  });
});
