/**
 * The real local stack for browser tests (scripts/local-stack/stack.mjs, as `npm run stack` starts it):
 * PostgreSQL with the migrations, the SMTP catcher, send-contact-email under Deno, and the production
 * build under remix-serve. One per worker, on free ports.
 */
import { test as base, expect, type ConsoleMessage, type Page, type Route } from "@playwright/test";
import postgres from "postgres";
import { FORM_ATTRIBUTE, READY_ATTRIBUTE as HYDRATED_ATTRIBUTE } from "~/enquiry/form-layer.inline";
import { startStack } from "../../scripts/local-stack/stack.mjs";

export const STUDIO_EMAIL = "bookings@e2e.example";

export type CaughtMail = { to: string; replyTo: string; subject: string; text: string; html: string };

export type Stack = {
  siteUrl: string;
  functionUrl: string;
  db: postgres.Sql;
  mails(): Promise<CaughtMail[]>;
  clearMail(): Promise<void>;
  stopFunction(): Promise<void>;
  /** Starts the function again, with `env` over the stack's own (for example a lower limit). */
  startFunction(env?: Record<string, string>): Promise<void>;
  /** nginx with proxy_cache in front of the site (a CDN); its origin is allowed by the function too. */
  startCdn(): Promise<{ url: string; originRequests(uri?: string): number; stop(): Promise<void> }>;
};

export const test = base.extend<{ consoleErrors: string[] }, { stack: Stack }>({
  stack: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const stack = await startStack({
        env: {
          function: {
            STUDIO_INBOX: STUDIO_EMAIL,
            STUDIO_NAME: "E2E Studio",
            // Browser tests type faster than people.
            MIN_FILL_MS: "200",
          },
          site: { SUPABASE_ANON_KEY: "e2e-anon-key", STUDIO_EMAIL, STUDIO_NAME: "E2E Studio" },
        },
      });
      const db = postgres(stack.db!.url, { max: 2, onnotice: () => {} });
      await use({
        siteUrl: stack.siteUrl,
        functionUrl: stack.functionUrl,
        db,
        mails: () => stack.mail!.read(),
        clearMail: () => stack.mail!.clear(),
        stopFunction: () => stack.stopFunction(),
        startFunction: (env = {}) => stack.startFunction(env),
        startCdn: () => stack.startCdn(),
      });
      await db.end();
      await stack.stop();
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ stack }, use) => use(stack.siteUrl),
  // On for every test (auto): any console error or uncaught exception in the test's browser context fails
  // it, unless the test says it expects that error (expectsConsoleErrors, or takes it: takeConsoleErrors).
  consoleErrors: [
    async ({ context }, use, testInfo) => {
      const errors: string[] = [];
      context.on("console", (message: ConsoleMessage) => {
        if (message.type() === "error") errors.push(message.text());
      });
      context.on("weberror", (error) => errors.push(error.error().message));
      await use(errors);
      const expected = testInfo.annotations.filter((a) => a.type === EXPECTED_CONSOLE_ERROR).map((a) => patternOf(a.description!));
      // A test that failed already may have stopped before its expected error: that says nothing new.
      for (const pattern of testInfo.status === "passed" ? expected : []) {
        await expect.poll(() => errors.some((e) => pattern.test(e)), `the expected console error ${pattern} appeared`).toBe(true);
      }
      expect(
        errors.filter((e) => !expected.some((pattern) => pattern.test(e))),
        "console errors",
      ).toEqual([]);
    },
    { auto: true },
  ],
});

const EXPECTED_CONSOLE_ERROR = "expected console error";
const patternOf = (description: string) => {
  const [, source, flags] = /^\/(.*)\/(\w*)$/s.exec(description)!;
  return new RegExp(source!, flags);
};

/** What Chromium logs when a document or resource is answered with `status` (a form post's 422 page, say). */
export const answeredWith = (status: number) => new RegExp(`status of ${status} `);

/**
 * A test's details (`test(title, expectsConsoleErrors(/.../), body)`): the console errors the test provokes.
 * Each pattern must match at least one error; errors it matches do not fail the test, any other does.
 */
export function expectsConsoleErrors(...patterns: RegExp[]) {
  return { annotation: patterns.map((pattern) => ({ type: EXPECTED_CONSOLE_ERROR, description: String(pattern) })) };
}

export { expect };

/** Removes and returns the console errors matching `pattern`, asserting there was at least one. */
export async function takeConsoleErrors(errors: string[], pattern: RegExp) {
  await expect.poll(() => errors.some((e) => pattern.test(e))).toBe(true);
  const taken = errors.filter((e) => pattern.test(e));
  errors.splice(0, errors.length, ...errors.filter((e) => !pattern.test(e)));
  return taken;
}

/** True once the booking form is React's island (app/enquiry/form-layer.inline.ts marks `<html>`). */
export function isHydrated(page: Page) {
  return page.evaluate((attribute) => document.documentElement.hasAttribute(attribute), HYDRATED_ATTRIBUTE);
}

/**
 * The visitor starts on the booking form, which is what loads its island (decision 030): focus
 * entering the form, sent as an event so that focus and scrolling stay where they are.
 */
export async function startHydration(page: Page) {
  await page.evaluate(
    (selector) => document.querySelector(selector)!.dispatchEvent(new FocusEvent("focusin", { bubbles: true })),
    `form[${FORM_ATTRIBUTE}]`,
  );
}

/** Starts the island (startHydration), then waits until React has the booking form. */
export async function hydrated(page: Page) {
  await startHydration(page);
  await page.waitForSelector(`html[${HYDRATED_ATTRIBUTE}]`, { state: "attached" });
}

/** Holds the page's JavaScript modules back (a slow network), so it stays unhydrated until `release()`. */
export async function holdModules(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/build\/.*\.js$/, (route) => (released ? route.continue() : held.push(route)));
  return {
    release: async () => {
      released = true;
      // A route held for a page that has since been left has nothing to continue.
      await Promise.all(held.splice(0).map((route) => route.continue().catch(() => undefined)));
    },
  };
}

/**
 * Slows the page's main thread `rate` times, as a slower phone's CPU would be (Chrome DevTools' CPU
 * throttling). Chromium slows it by busy-waiting: a signal handler on the main thread spins until its
 * share of the time has passed (blink's ThreadCPUThrottler). So a throttled page keeps a core busy for
 * as long as it stays throttled, idle or not: an idle page took 17 CPU-s in 20 s at ×4 and 20 at ×8,
 * against 1 unthrottled (docs/decisions/015). A test slows the page only while the behaviour it checks
 * happens, and calls the returned function to give the page its full speed back.
 */
export async function slowCpu(page: Page, rate: number): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate });
  return async () => {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await cdp.detach();
  };
}
