/**
 * The recipe for a new field, in the browser (decision 030: a contract entry with `options` is a select): a
 * scratch copy of the repository gets an optional "Budget" select of three choices in its contract, its label
 * and placeholder in its content, and the migration for its column, and no other edit. Its build, on its own
 * local stack (the copy's migrations, function and site), shows the select in the form, sends it with
 * JavaScript (the island) and without (the form post), mails it to the studio and brings the choice back on
 * Back. The function's and the mails' half, with a choice not in the list, is tests/function/adding-a-field.test.ts.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "@playwright/test";
import postgres from "postgres";
import { contactForm, toasts } from "~/content";
import { SENT_PAGE_TARGET } from "~/enquiry/outcome";
import { scratchCopy } from "../support/scratch-copy";
import { test as base, expect, hydrated, holdModules, isHydrated, STUDIO_EMAIL, type Stack } from "./fixtures";

/** A name no real field will take; the label and choices a studio would give it. */
const NAME = "scratchBudget";
const LABEL = "Budget";
const PLACEHOLDER = "Choose a budget";
const OPTIONS = ["Under $500", "$500 - $2000", "Over $2000"];
const ENTRY = `{ name: "${NAME}", label: "${LABEL}", required: false, limit: 20, lines: "one", autocomplete: "off", inputType: "text", options: ${JSON.stringify(OPTIONS)} },`;
const MIGRATION = "alter table public.contact_enquiries add column scratch_budget text check (char_length(scratch_budget) <= 20);\n";

/** The copy's own stack, in place of the repository's (the fixtures' `stack`, so every helper of theirs works). */
const test = base.extend<object, { stack: Stack }>({
  stack: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const copy = scratchCopy();
      try {
        copy.edit("supabase/functions/_shared/contact-message.ts", (source) =>
          source.replace(/(\{ name: "email",[^\n]*\n)/, `$1  ${ENTRY}\n`),
        );
        copy.edit("app/content.ts", (source) =>
          source
            .replace(/(labels: \{[^}]*email: "Email",)/, `$1\n    ${NAME}: "${LABEL}",`)
            .replace(/(placeholders: \{[^}]*email: "[^"]*",)/, `$1\n    ${NAME}: "${PLACEHOLDER}",`),
        );
        writeFileSync(path.join(copy.dir, "supabase/migrations/29991231000000_scratch_budget.sql"), MIGRATION);
        const build = copy.run("npm", ["run", "build", "--silent"], 240_000);
        if (build.code !== 0) throw new Error(`the copy's build failed:\n${build.output}`);

        const { startStack } = await import(pathToFileURL(path.join(copy.dir, "scripts/local-stack/stack.mjs")).href);
        // As the fixtures start the repository's stack (tests/e2e/fixtures.ts).
        const stack = await startStack({
          env: {
            function: { STUDIO_INBOX: STUDIO_EMAIL, STUDIO_NAME: "E2E Studio", MIN_FILL_MS: "200" },
            site: { SUPABASE_ANON_KEY: "e2e-anon-key", STUDIO_EMAIL, STUDIO_NAME: "E2E Studio" },
          },
        });
        const db = postgres(stack.db.url, { max: 2, onnotice: () => {} });
        try {
          await use({
            siteUrl: stack.siteUrl,
            functionUrl: stack.functionUrl,
            db,
            mails: () => stack.mail.read(),
            clearMail: () => stack.mail.clear(),
            stopFunction: () => stack.stopFunction(),
            startFunction: (env = {}) => stack.startFunction(env),
            startCdn: () => stack.startCdn(),
          });
        } finally {
          await db.end();
          await stack.stop();
        }
      } finally {
        copy.remove();
      }
    },
    { scope: "worker", timeout: 400_000 },
  ],
});

const form = (page: Page) => page.locator("#contact form");
const budget = (page: Page) => form(page).getByRole("combobox", { name: new RegExp(`^${LABEL}`) });

async function fillIn(page: Page, title: string, choice: string) {
  await form(page).getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await form(page).getByLabel("Email", { exact: true }).fill("ada@example.com");
  await form(page).getByLabel("Project Title", { exact: true }).fill(title);
  await budget(page).selectOption(choice);
}

/** The row stored for `title`, and the studio's mail about it. */
async function sent(stack: Stack, title: string) {
  await expect
    .poll(async () => (await stack.mails()).some((m) => m.to.includes(STUDIO_EMAIL) && m.text.includes(title)), { timeout: 20_000 })
    .toBe(true);
  const [row] = await stack.db`select scratch_budget from contact_enquiries where project_title = ${title}`;
  const mail = (await stack.mails()).find((m) => m.to.includes(STUDIO_EMAIL) && m.text.includes(title))!;
  return { stored: row?.scratch_budget as string | undefined, mail };
}

test.describe("a select added to a copy of the contract", () => {
  // What it shows does not depend on the width, and the copy's build and stack are costly: once is enough.
  test.skip(({ isMobile }) => !isMobile, "runs in the mobile project only");

  test("is rendered as a select of its choices, optional, after the address", async ({ page }) => {
    await page.goto("/");
    const select = budget(page);
    await expect(select).toBeVisible();
    await expect(select).not.toHaveAttribute("required");
    await expect(select.locator("option")).toHaveText([PLACEHOLDER, ...OPTIONS]);
    await expect(select).toHaveValue("");
    await expect(form(page).locator(`label[for="contact-${NAME}"]`)).toContainText(contactForm.optional);
    const names = await form(page)
      .locator("[name]")
      .evaluateAll((controls) => controls.map((c) => c.getAttribute("name")));
    expect(names.slice(names.indexOf("email") + 1, names.indexOf("email") + 2)).toEqual([NAME]);
  });

  test("is sent with JavaScript (the island): stored, and in the studio's mail", async ({ page, stack }) => {
    const title = `Select island ${Date.now().toString(36)}`;
    await page.goto("/");
    await hydrated(page);
    await page.waitForTimeout(250); // people take longer than MIN_FILL_MS
    await fillIn(page, title, OPTIONS[1]!);
    await form(page).getByRole("button", { name: contactForm.submit }).click();
    await expect(page.getByText(toasts.success.title, { exact: true })).toBeVisible();
    const { stored, mail } = await sent(stack, title);
    expect(stored).toBe(OPTIONS[1]);
    expect(mail.text).toContain(`${LABEL}: ${OPTIONS[1]}`);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("is sent with the form post: stored, and in the studio's mail", async ({ page, stack }) => {
      const title = `Select post ${Date.now().toString(36)}`;
      await page.goto("/");
      await page.waitForTimeout(250);
      await fillIn(page, title, OPTIONS[2]!);
      await form(page).getByRole("button", { name: contactForm.submit }).click();
      await page.waitForURL(`**${SENT_PAGE_TARGET}`);
      const { stored, mail } = await sent(stack, title);
      expect(stored).toBe(OPTIONS[2]);
      expect(mail.text).toContain(`${LABEL}: ${OPTIONS[2]}`);
    });
  });

  test("comes back chosen on Back, before the island and after it", async ({ page }) => {
    const modules = await holdModules(page);
    await page.goto("/");
    await fillIn(page, "Back before", OPTIONS[0]!);
    expect(await isHydrated(page)).toBe(false);
    await page.goto("/robots.txt");
    await page.goBack();
    await expect(budget(page)).toHaveValue(OPTIONS[0]!);

    await modules.release();
    await hydrated(page);
    await budget(page).selectOption(OPTIONS[2]!);
    await page.goto("/robots.txt");
    await page.goBack();
    await expect(budget(page)).toHaveValue(OPTIONS[2]!);
  });
});
