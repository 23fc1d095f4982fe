/**
 * The console-error check of fixtures.ts is on for every test: these tests are about the check itself, so
 * the ones the check must fail are marked `test.fail()` (they pass only if the check fails them).
 */
import type { Page } from "@playwright/test";
import { expectsConsoleErrors, test } from "./fixtures";

const logError = (page: Page, text: string) => page.evaluate((t) => console.error(t), text);

test.describe("the console-error check", () => {
  // About the fixture, not the page: once is enough.
  test.skip(({ isMobile }) => !isMobile, "runs in the mobile project only");
  test("fails a test that logs an error without naming the check", async ({ page }) => {
    test.fail();
    await page.goto("about:blank");
    await logError(page, "an error nobody expected");
  });

  test("fails a test on an uncaught exception", async ({ page }) => {
    test.fail();
    await page.goto("about:blank");
    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error("uncaught");
      }),
    );
    await page.waitForTimeout(100);
  });

  test("lets through the errors a test says it expects, and only those", expectsConsoleErrors(/expected one/), async ({ page }) => {
    await page.goto("about:blank");
    await logError(page, "the expected one");
  });

  test("fails a test whose expected error never appears", expectsConsoleErrors(/never logged/), async ({ page }) => {
    test.fail();
    await page.goto("about:blank");
  });
});
