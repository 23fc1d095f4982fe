import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH } from "./scripts/local-stack/chromium.mjs";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.test.ts",
  // Each worker owns one real stack (Postgres, SMTP catcher, function, site; tests/e2e/fixtures.ts), so
  // a test that stops the function stops only its own. Two keep two cores busy: one alone waited on its
  // stack a third of the time (5.0 min for the suite, 4.0 min with two).
  workers: 2,
  fullyParallel: false,
  retries: 0,
  // Timeouts are guards against a hang, never a measure of speed (that is scripts/measure). In `npm test`
  // the browser suite shares the two cores with every step beside it, and a test can take six times as
  // long as alone: the home page's axe check at 1440 px, 5 s alone, ran out of 30 s there (CI, 2026-11-26).
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never", outputFolder: "artifacts/playwright-report" }]] : "list",
  outputDir: "artifacts/test-results",
  use: {
    // No trace by default: recording one for every test (a DOM snapshot around every action) cost 30 % of a
    // file's CPU time, and the suite is bound by CPU (faq.test.ts on the phone: 94 CPU-s with traces kept on
    // failure, 66 without; docs/decisions/015). A failure keeps a screenshot and Playwright's page snapshot;
    // for a trace, run the failing test again with `--trace retain-on-failure`.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_ARGS },
    // The page scrolls smoothly while a link in it has focus (app/styles/global.css.ts), so a click
    // right after following one could land while the page still slides under it. Tests that are
    // about motion ask for it themselves.
    contextOptions: { reducedMotion: "reduce" },
  },
  projects: [
    {
      name: "mobile",
      // At a device pixel ratio of 1, not the Pixel's 2.625: the layout is in CSS pixels either way, and the
      // ratio only multiplies what Chromium rasterises in software (booking.test.ts: 75 CPU-s at 2.625, 57-62
      // at 1). The tests where the ratio matters (200 % zoom) set it themselves.
      use: { ...devices["Pixel 7"], viewport: { width: 360, height: 780 }, deviceScaleFactor: 1, browserName: "chromium" },
    },
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], viewport: { width: 1440, height: 900 } },
      // What does not depend on the width runs on the phone only: the booking flow's behaviour (the
      // function's answers, toasts, the no-JS path), the responses' headers, CSP and head (production), the
      // form coming back on Back (coming-back), the FAQ's rules through hydration (faq) and the 404 and
      // error screens (errors: their texts do not depend on the width). At 1440 px the layout tests, the
      // toast's placement, the hydration tests the width can change, the home page's (its FAQ by mouse and
      // keyboard included) and the Firefox and WebKit journeys (tests/engines, where those browsers are
      // installed: the page, the menu, sending and the toast at 1440 px) cover them.
      testIgnore: ["**/booking.test.ts", "**/production.test.ts", "**/coming-back.test.ts", "**/faq.test.ts", "**/errors.test.ts"],
    },
  ],
});
