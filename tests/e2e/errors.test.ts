import AxeBuilder from "@axe-core/playwright";
import { errorScreen, notFound } from "~/content";
import { answeredWith, expect, expectsConsoleErrors, takeConsoleErrors, test } from "./fixtures";

/** What the browser logs on a page that is not found: the 404 document as a failed resource, and the path. */
const NOT_FOUND_LOGGED = [answeredWith(404), /non-existent route/];

test.describe("not-found page", () => {
  // Chromium reports the 404 document itself as a failed resource.
  test(
    "answers 404 with the spec's texts, logs the path and links home",
    expectsConsoleErrors(answeredWith(404)),
    async ({ page, consoleErrors }) => {
      const response = await page.goto("/no/such/page?x=1");
      expect(response?.status()).toBe(404);
      await expect(page.getByText(notFound.code, { exact: true })).toBeVisible();
      await expect(page.getByRole("heading", { name: notFound.title })).toBeVisible();
      const logged = await takeConsoleErrors(consoleErrors, /non-existent route/);
      expect(logged.some((line) => line.includes("/no/such/page"))).toBe(true);
      await page.getByRole("link", { name: notFound.link }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    },
  );

  test("has no WCAG 2.2 AA violations (axe)", expectsConsoleErrors(...NOT_FOUND_LOGGED), async ({ page }) => {
    await page.goto("/missing");
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});

test.describe("router error screen", () => {
  test("shows the status of a route error response", expectsConsoleErrors(answeredWith(405)), async ({ page }) => {
    // A form post to a route without an action is refused by the router itself: 405.
    await page.goto("/");
    await page.evaluate(() => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = "/not-a-page";
      document.body.append(form);
      form.submit();
    });
    await expect(page.getByRole("heading", { name: errorScreen.title })).toBeVisible();
    await expect(page.getByText("405 Method Not Allowed")).toBeVisible();
  });
});
