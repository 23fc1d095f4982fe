// Which Chromium the browser tests and the bench drive, the ecosystem's way first:
//   1. CHROMIUM_PATH, when set;
//   2. Playwright's own build, where `npx playwright install chromium` could download it;
//   3. Debian's /usr/bin/chromium, where that download is impossible (machines without internet:
//      scripts/test/setup.sh installs it with apt, as root or with sudo only).
// The flags stop Chromium calling out to a network that may not be there.
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

const DEBIAN_CHROMIUM = "/usr/bin/chromium";

function find() {
  if (process.env.CHROMIUM_PATH) return { kind: "CHROMIUM_PATH", path: process.env.CHROMIUM_PATH };
  const own = chromium.executablePath();
  if (own && existsSync(own)) return { kind: "Playwright's Chromium", path: own };
  if (existsSync(DEBIAN_CHROMIUM)) return { kind: "Debian's Chromium", path: DEBIAN_CHROMIUM };
  return null;
}

/** `{ kind, path }` of the browser to use, or null when there is none. */
export const BROWSER = find();
/** The executable's path (Lighthouse needs one); undefined when there is no browser. */
export const CHROMIUM_PATH = BROWSER?.path;
export const NO_BROWSER_HELP =
  "No Chromium found. Run `npx playwright install chromium` (needs internet), or on Debian/Ubuntu " +
  "`sudo apt-get install chromium`, or set CHROMIUM_PATH to a Chromium or Chrome executable.";
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

if (import.meta.url === `file://${process.argv[1]}`) {
  // `node scripts/local-stack/chromium.mjs`: says which browser the tests will use, or fails with what to do.
  if (!BROWSER) {
    console.error(NO_BROWSER_HELP);
    process.exit(1);
  }
  console.log(`browser: ${BROWSER.kind} (${BROWSER.path})`);
}
