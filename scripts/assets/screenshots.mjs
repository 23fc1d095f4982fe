// `npm run screenshots`: the README's screenshots (docs/screenshot-{360,1440}.png), taken from a fresh
// production build (the script builds first: the stack would reuse a stale build/) with the default
// configuration (the studio a newcomer would see), with the booking form's island loaded: the first screen a visitor sees. And the
// whole page at each width, every photo loaded, to look at (artifacts/screenshots/home-{360,1440}.png).
import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../local-stack/chromium.mjs";
import { ROOT } from "../local-stack/processes.mjs";
import { startStack } from "../local-stack/stack.mjs";

const stack = await startStack({ db: false, mail: false, fn: false });
const site = { url: stack.siteUrl };
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const width of [360, 1440]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${site.url}/`);
    // The island loads when the visitor starts on the form (decision 030): focus entering it, sent as an
    // event so that nothing scrolls (as tests/e2e/fixtures.ts's startHydration does).
    await page.evaluate(() =>
      document.querySelector("form[data-contact-form]").dispatchEvent(new FocusEvent("focusin", { bubbles: true })),
    );
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.screenshot({ path: path.join(ROOT, `docs/screenshot-${width}.png`), fullPage: false });
    for (const img of await page.getByRole("img").all()) await img.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0));
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ROOT, `artifacts/screenshots/home-${width}.png`), fullPage: true });
    await page.close();
  }
} finally {
  await browser.close();
  await stack.stop();
}
