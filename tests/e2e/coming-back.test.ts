/**
 * A visitor who follows a link away from the page and comes Back finds everything they typed in the
 * booking form (app/enquiry/form-layer.inline.ts). Chromium here runs without the back/forward cache,
 * so Back loads the page again: the path where browsers restore only part of a form by themselves
 * (never Project Title, autocomplete="off"; after hydration not even name and e-mail). Firefox and
 * WebKit take the same journey in tests/engines/.
 */
import type { Locator, Page, Route } from "@playwright/test";
import { contactForm, toasts } from "~/content";
import { expect, hydrated, isHydrated, test } from "./fixtures";

const typed = {
  Name: "Grace Hopper",
  Email: "grace@example.com",
  "Project Title": "Compiler Blues EP",
  "Project Details": "Five songs,\nlive drums.",
};

const form = (page: Page) => page.locator("#contact form");
const field = (page: Page, label: string) => form(page).getByLabel(label, { exact: label !== "Project Details" });
const projectDetails = (page: Page): Locator => form(page).getByRole("textbox", { name: /Project Details/ });

async function fillIn(page: Page) {
  for (const [label, value] of Object.entries(typed)) {
    await (label === "Project Details" ? projectDetails(page) : field(page, label)).fill(value);
  }
}

async function expectTyped(page: Page) {
  for (const [label, value] of Object.entries(typed)) {
    await expect(label === "Project Details" ? projectDetails(page) : field(page, label), label).toHaveValue(value);
  }
}

/** Follows a link to another document of the site (a new history entry), then goes Back. */
async function leaveAndComeBack(page: Page) {
  await page.goto("/robots.txt");
  await page.goBack();
  await expect(form(page)).toBeVisible();
}

test.describe("Back to the page after following a link", () => {
  test("before the page has hydrated: every field is as typed, Project Title and details included", async ({ page }) => {
    // The page's scripts never arrive while the visitor is here: it stays the plain HTML page.
    const held: Route[] = [];
    await page.route(/\/build\/.*\.js$/, (route) => void held.push(route));
    await page.goto("/");
    await fillIn(page);
    expect(await isHydrated(page)).toBe(false);
    await leaveAndComeBack(page);
    await expectTyped(page);
  });

  test("after it has hydrated: every field is as typed, and stays so as the page hydrates again", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    await fillIn(page);
    await leaveAndComeBack(page);
    await expectTyped(page);
    await hydrated(page);
    await expectTyped(page);
  });

  test("after sending, the form comes back empty; arriving by a link starts empty too", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    await fillIn(page);
    await page.goto("/");
    for (const label of ["Name", "Email", "Project Title"]) await expect(field(page, label)).toHaveValue("");

    await hydrated(page);
    await fillIn(page);
    await page.waitForTimeout(250); // people take longer than MIN_FILL_MS
    await form(page).getByRole("button", { name: contactForm.submit }).click();
    await expect(page.locator("[data-tone=success]")).toContainText(toasts.success.title);
    await expect(field(page, "Name")).toHaveValue("");
    await leaveAndComeBack(page);
    for (const label of ["Name", "Email", "Project Title"]) await expect(field(page, label)).toHaveValue("");
    await expect(projectDetails(page)).toHaveValue("");
  });
});
