// Which Chromium the browser tests and the measurements drive, the ecosystem's way first:
//   1. CHROMIUM_PATH, when set (for both);
//   2. Playwright's own build, where `npx playwright install chromium` could download it;
//   3. Debian's, where that download is impossible (machines without internet: scripts/test/setup.sh
//      installs it with apt, as root or with sudo only).
// Two builds of the same Chromium, as Playwright itself uses them:
//   - the tests drive the headless shell (Playwright's default for headless runs; Debian's
//     `chromium-headless-shell`): the same Blink and V8 without the desktop browser around them, about
//     40 % less CPU on a two-core machine (docs/decisions/015);
//   - the measurements (bench, visitor.mjs, the README's screenshots) drive the whole browser, as a
//     visitor has it.
// The flags stop Chromium calling out to a network that may not be there.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const DEBIAN = { browser: "/usr/bin/chromium", headlessShell: "/usr/bin/chromium-headless-shell" };

/** Playwright's own Chromium, where `npx playwright install chromium` put it, and whether its headless shell is beside it. */
function playwrightsOwn() {
  const own = chromium.executablePath();
  if (!own || !existsSync(own)) return null;
  // ~/.cache/ms-playwright/chromium-<n>/chrome-linux64/chrome, beside chromium_headless_shell-<n>/
  const browsers = path.resolve(own, "../../..");
  const shell = readdirSync(browsers).some((name) => name.startsWith("chromium_headless_shell-"));
  return { path: own, shell };
}

const FROM_ENVIRONMENT = process.env.CHROMIUM_PATH ? { kind: "CHROMIUM_PATH", path: process.env.CHROMIUM_PATH } : null;
const OWN = playwrightsOwn();

function findBrowser() {
  if (FROM_ENVIRONMENT) return FROM_ENVIRONMENT;
  if (OWN) return { kind: "Playwright's Chromium", path: OWN.path };
  return existsSync(DEBIAN.browser) ? { kind: "Debian's Chromium", path: DEBIAN.browser } : null;
}

function findTestBrowser(browser) {
  if (FROM_ENVIRONMENT) return FROM_ENVIRONMENT;
  // Playwright picks its own headless shell itself when no executable is named.
  if (OWN?.shell) return { kind: "Playwright's Chromium headless shell", path: undefined };
  if (!OWN && existsSync(DEBIAN.headlessShell)) return { kind: "Debian's chromium-headless-shell", path: DEBIAN.headlessShell };
  // The whole browser, slower, the same engine: what a machine has before setup installs the shell.
  return browser && { ...browser, fallback: true };
}

/** `{ kind, path }` of the whole browser (what the measurements drive), or null when there is none. */
export const BROWSER = findBrowser();
/** The executable's path (Lighthouse needs one); undefined when there is no browser. */
export const CHROMIUM_PATH = BROWSER?.path;
/**
 * `{ kind, path, fallback? }` of the Chromium the tests drive; `path` undefined means Playwright's own choice,
 * `fallback` the whole browser where no headless shell is installed.
 */
export const TEST_BROWSER = findTestBrowser(BROWSER);
/** For `chromium.launch({ executablePath })` in the tests. */
export const TEST_CHROMIUM_PATH = TEST_BROWSER?.path;
export const NO_BROWSER_HELP =
  "No Chromium found. Run `npx playwright install chromium` (needs internet), or on Debian/Ubuntu " +
  "`sudo apt-get install chromium` (and `chromium-headless-shell` where the distribution has it), or set CHROMIUM_PATH " +
  "to a Chromium or Chrome executable.";
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
  // `node scripts/local-stack/chromium.mjs`: prints the Chromium the tests drive, or fails with what to do:
  // 1 when there is no whole browser (the measurements need one), 2 when the tests would drive it for want
  // of a headless shell.
  if (!BROWSER) {
    console.error(NO_BROWSER_HELP);
    process.exit(1);
  }
  console.log(`browser: ${TEST_BROWSER.kind}${TEST_BROWSER.path ? ` (${TEST_BROWSER.path})` : ""}`);
  if (TEST_BROWSER.fallback) {
    console.error("no Chromium headless shell: the tests drive the whole browser, which is slower");
    process.exitCode = 2;
  }
}
