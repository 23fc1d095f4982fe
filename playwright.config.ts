import { defineConfig, devices } from "@playwright/test";

// Debian's Chromium (Playwright cannot download its own here). Flags: see ../shared toolchain notes;
// the background-networking ones stop Chromium calling out to a network this machine does not have.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.test.ts",
  // One worker owns one real stack (Postgres, SMTP catcher, function, site); some tests stop the function.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never", outputFolder: "artifacts/playwright-report" }]] : "list",
  outputDir: "artifacts/test-results",
  use: {
    trace: "retain-on-failure",
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: "mobile", use: { ...devices["Pixel 7"], viewport: { width: 360, height: 780 }, browserName: "chromium" } },
    { name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1440, height: 900 } } },
  ],
});
