/**
 * Send, then leave the page at once, then Back (decisions 029 and 030): the enquiry is stored
 * once or not at all, the visitor lands where they went, and the page says which: the success toast
 * (a Send that was on its way goes again with its key and is stored once), or the form as it was,
 * enabled, with every value, for a Send that never left the page; never a frozen "Sending...", an
 * error for an enquiry that arrived, an empty form that says nothing, or a post made later from under
 * the next page. Chromium here runs without the
 * back/forward cache (a new copy of the page comes Back); Firefox and WebKit take the cached path in
 * the engines' journey (tests/engines/journey.ts).
 */
import type { Page } from "@playwright/test";
import { CONTACT_FIELDS } from "#shared/contact-message.ts";
import { contactForm, toasts } from "~/content";
import { expect, holdModules, hydrated, isHydrated, test, type Stack } from "./fixtures";

let seq = 0;

async function fill(page: Page, t: string) {
  const values = { name: "Ada Lovelace", email: `ada-${t}@example.com`, projectTitle: `Leaving ${t}`, projectDetails: `Two songs, ${t}` };
  const form = page.locator("#contact form");
  for (const [name, value] of Object.entries(values)) await form.locator(`[name=${name}]`).fill(value);
  return { form, values };
}
const stored = async (stack: Stack, title: string) =>
  (await stack.db`select id from contact_enquiries where project_title = ${title}`).length;
const read = (page: Page) =>
  page
    .locator("#contact form")
    .evaluate(
      (form: HTMLFormElement, fields) => Object.fromEntries(fields.map((n) => [n, (form.elements.namedItem(n) as HTMLInputElement).value])),
      [...CONTACT_FIELDS],
    );

test.describe("Send, then leaving the page at once", () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) > 400, "the booking flow does not depend on the width: the 360 px project");

  test("before the island is ready: Back shows the form as it was, enabled, every value; it never posts later; a Send then stores it once", async ({
    page,
    stack,
  }) => {
    const t = `before-${Date.now().toString(36)}${seq++}`;
    // The scripts are held back until the visitor has left, so the Send is still waiting for the island then
    // (a fixed delay was not enough on a busy machine: the island came first).
    const modules = await holdModules(page);
    await page.goto("/");
    await page.waitForTimeout(250);
    const { form, values } = await fill(page, t);
    await form.getByRole("button", { name: contactForm.submit }).click();
    await expect(form.getByRole("button", { name: contactForm.sending })).toBeDisabled();
    expect(await isHydrated(page)).toBe(false);
    await page.goto("/robots.txt");
    await modules.release();
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expect.poll(() => read(page)).toEqual(values);
    await expect(form.getByRole("button", { name: contactForm.submit })).toBeEnabled();
    await expect(form.getByLabel("Project Title")).toBeEditable();
    // Longer than the early Send's wait for the island: nothing posts the page from under the visitor.
    await page.waitForTimeout(13_000);
    await expect(page).toHaveURL(/\/$/);
    expect(await stored(stack, values.projectTitle)).toBe(0);

    await form.getByRole("button", { name: contactForm.submit }).click();
    await expect(page.locator("[data-tone=success]")).toContainText(toasts.success.title);
    await expect.poll(() => stored(stack, values.projectTitle)).toBe(1);
  });

  test("after the island is ready, the call on its way: Back finishes the Send with the same key, and shows the success toast: stored once", async ({
    page,
    stack,
  }) => {
    const t = `after-${Date.now().toString(36)}${seq++}`;
    await page.goto("/");
    await hydrated(page);
    // The function stores the enquiry; its answer is on its way when the visitor leaves.
    const keys: string[] = [];
    await page.route("**/functions/v1/send-contact-email", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      keys.push(route.request().headers()["idempotency-key"] ?? "");
      if (keys.length > 1) return route.continue();
      const answer = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await route.fulfill({ response: answer }).catch(() => undefined);
    });
    const { form, values } = await fill(page, t);
    await page.waitForTimeout(250); // people take longer than MIN_FILL_MS
    await form.getByRole("button", { name: contactForm.submit }).click();
    await expect.poll(() => stored(stack, values.projectTitle)).toBe(1);
    await page.goto("/robots.txt");
    await page.goBack();
    await expect(page.locator("[data-tone=success]")).toContainText(toasts.success.title);
    await expect(form.getByRole("button", { name: contactForm.submit })).toBeEnabled();
    await expect(page.locator("[data-tone=destructive]")).toHaveCount(0);
    expect(await read(page), "the form emptied by the Send it finished").toEqual({
      name: "",
      email: "",
      projectTitle: "",
      projectDetails: "",
    });
    expect(keys).toHaveLength(2);
    expect(keys[1], "the Send finished after Back: the Idempotency-Key of the one cut off").toBe(keys[0]);
    expect(await stored(stack, values.projectTitle)).toBe(1);
  });

  // The success came, and the visitor left for another site before its toast was seen to its end.
  for (const [moment, leaveAfterMs] of [
    ["before the island is ready", 50],
    ["after the island is ready", 50],
    ["after the island is ready", 200],
  ] as const) {
    test(`${moment}, stored, another site ${leaveAfterMs} ms after the success: Back shows the success toast again, and sends nothing`, async ({
      page,
      stack,
    }) => {
      const t = `sent-${Date.now().toString(36)}${seq++}`;
      const posts: string[] = [];
      page.on(
        "request",
        (request) => request.method() === "POST" && request.url().includes("send-contact-email") && posts.push(request.url()),
      );
      await page.goto("/");
      if (moment === "after the island is ready") await hydrated(page);
      const { form, values } = await fill(page, t);
      await form.getByRole("button", { name: contactForm.submit }).click();
      await expect(page.locator("[data-tone=success]")).toContainText(toasts.success.title);
      await page.waitForTimeout(leaveAfterMs);
      await page.goto(`${stack.functionUrl}/functions/v1/send-contact-email/health`); // another origin
      await page.goBack();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.locator("[data-tone=success]")).toContainText(toasts.success.title);
      expect(await read(page)).toEqual({ name: "", email: "", projectTitle: "", projectDetails: "" });
      expect(posts, "no Send after Back").toHaveLength(1);
      expect(await stored(stack, values.projectTitle)).toBe(1);
      // Seen now (the visitor is back in a field, and the toast goes): Back again says nothing more.
      await form.getByLabel("Name").click();
      await expect(page.locator("[data-tone=success]")).toHaveCount(0);
      await page.goto("/robots.txt");
      await page.goBack();
      await expect(page.locator("#contact form")).toBeVisible();
      await page.waitForTimeout(1000);
      await expect(page.locator("[data-tone=success]")).toHaveCount(0);
    });
  }
});
