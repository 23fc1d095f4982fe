/**
 * Firefox, driven over WebDriver BiDi by puppeteer-core: Debian's firefox-esr (or FIREFOX_PATH), no
 * geckodriver and no browser download. Headless; its classic scrollbars make a 360 px window lay out
 * at 348 px, as on a desktop.
 */
import { existsSync } from "node:fs";
import puppeteer from "puppeteer-core";
import { scrollToCentre, until, type Launch } from "./driver";

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

export async function launchFirefox(): Promise<Launch> {
  if (!existsSync(FIREFOX_PATH)) return { missing: `no Firefox at ${FIREFOX_PATH} (apt-get install firefox-esr, or set FIREFOX_PATH)` };
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX_PATH,
    headless: true,
    // No back/forward cache: Back loads the page again, the path where browsers restore a form only in
    // part (a page the browser evicted; Chromium's tests run so too). From the cache every engine but
    // WebKit keeps the whole form anyway.
    extraPrefsFirefox: { "browser.sessionhistory.max_total_viewers": 0 },
  });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error instanceof Error ? error.message : String(error)));
  const version = await browser.version();
  return {
    driver: {
      name: version.replace("/", " "),
      setViewport: (width, height) => page.setViewport({ width, height }),
      goto: async (url) => void (await page.goto(url, { waitUntil: "load" })),
      evaluate: (fn, ...args) => page.evaluate(fn as never, ...(args as unknown as never[])) as never,
      click: async (selector) => {
        const element = await page.waitForSelector(selector, { visible: true });
        await element!.evaluate(scrollToCentre);
        await element!.click();
      },
      type: (text) => page.keyboard.type(text, { delay: 20 }),
      // page.goBack() may never return for a page restored from the back/forward cache.
      back: async () => {
        const from = await page.evaluate(() => location.href);
        await page.evaluate(() => void setTimeout(() => history.back(), 0));
        await until("the previous page", () => page.evaluate((left) => location.href !== left && document.readyState === "complete", from));
      },
      takeConsoleErrors: async () => errors.splice(0),
      screenshot: async (path) => void (await page.screenshot({ path: path as `${string}.png` })),
      close: () => browser.close(),
    },
  };
}
