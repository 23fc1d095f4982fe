/**
 * WebKit, as WebKitGTK: Debian's WebKitWebDriver over classic W3C WebDriver, driven by webdriverio.
 * MiniBrowser has no headless mode and its toolbar keeps its window at least 447 px wide, so the
 * browser is our own bare one (webkit-bare-browser.py: a window that is all web view) under Xvfb,
 * and any viewport works. Classic WebDriver has no console API: the bare browser writes the page's
 * console messages to a file, read here.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { remote } from "webdriverio";
import { freePort } from "../../scripts/local-stack/ports.mjs";
import { isNewDocument, markDocument, scrollToCentre, until, type Launch, type LaunchOptions } from "./driver";

export const WEBKIT_WEBDRIVER = process.env.WEBKIT_WEBDRIVER_PATH ?? "/usr/bin/WebKitWebDriver";
const XVFB = "/usr/bin/Xvfb";
const BARE_BROWSER = path.join(import.meta.dirname, "webkit-bare-browser.py");
const GI_CHECK =
  "import gi; gi.require_version('Gtk', '3.0'); gi.require_version('WebKit2', '4.1'); from gi.repository import WebKit2 as W; " +
  "print(f'{W.get_major_version()}.{W.get_minor_version()}.{W.get_micro_version()}')";

/** WebKitGTK's version, or why it cannot run here. */
function webkitGtk(): { version: string } | { missing: string } {
  if (!existsSync(WEBKIT_WEBDRIVER)) return { missing: `no WebKitWebDriver at ${WEBKIT_WEBDRIVER} (apt-get install webkit2gtk-driver)` };
  if (!existsSync(XVFB)) return { missing: "no Xvfb (apt-get install xvfb)" };
  const check = spawnSync("/usr/bin/python3", ["-c", GI_CHECK], { encoding: "utf8" });
  if (check.status !== 0) return { missing: "no WebKitGTK for Python (apt-get install python3-gi gir1.2-gtk-3.0 gir1.2-webkit2-4.1)" };
  return { version: check.stdout.trim() };
}

/** Xvfb on the first free display (it says which on fd 3). */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn(XVFB, ["-displayfd", "3", "-screen", "0", "1600x1200x24", "-nolisten", "tcp"], {
    stdio: ["ignore", "ignore", "ignore", "pipe"],
  });
  const display = await new Promise<string>((resolve, reject) => {
    xvfb.stdio[3]!.once("data", (data) => resolve(`:${String(data).trim()}`));
    xvfb.once("exit", (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
  return { display, process: xvfb };
}

export async function launchWebKit({ scripts }: LaunchOptions = { scripts: true }): Promise<Launch> {
  const found = webkitGtk();
  if ("missing" in found) return found;
  const dir = mkdtempSync(path.join(tmpdir(), "webkit-journey-"));
  const consoleLog = path.join(dir, "console.log");
  const xvfb = await startXvfb();
  const port = await freePort();
  const driverProcess = spawn(WEBKIT_WEBDRIVER, [`--port=${port}`, "--host=127.0.0.1"], {
    env: { ...process.env, DISPLAY: xvfb.display, WEBKIT_CONSOLE_LOG: consoleLog, WEBKIT_DATA_DIR: path.join(dir, "data") },
    stdio: "ignore",
  });
  const stop = () => {
    driverProcess.kill();
    xvfb.process.kill();
    // The web processes may still be writing their storage as they die.
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  };
  const logText = () => (existsSync(consoleLog) ? readFileSync(consoleLog, "utf8") : "");
  const loadSteps = (from: number) =>
    [
      ...logText()
        .slice(from)
        .matchAll(/^webkit-bare-browser: load (\w+) /gm),
    ].map((m) => m[1]);
  /**
   * Starts a navigation and waits, in the bare browser's log and not over WebDriver, until WebKit's
   * load steps for it (its "load-changed" signal: started, committed, finished) have ended: a load
   * started after `start` was called, and nothing under way since. WebKitWebDriver, asked to run a
   * script in the middle of a navigation on a loaded machine, can stop answering for good
   * (UND_ERR_HEADERS_TIMEOUT). A navigation within the document (a fragment) has no load steps: use
   * `evaluate` for those.
   */
  const navigate = async (what: string, start: () => Promise<unknown>) => {
    const from = logText().length;
    await start();
    await until(
      `${what}: WebKit's load steps to end (the browser's log)`,
      async () => {
        const steps = loadSteps(from);
        return steps.includes("started") && steps.at(-1) === "finished";
      },
      30_000,
    );
  };
  /** No navigation under way: the last of WebKit's load steps in the browser's log, if any, is "finished". */
  const settled = () =>
    until("WebKit's load steps to end (the browser's log)", async () => (loadSteps(0).at(-1) ?? "finished") === "finished", 30_000);
  try {
    const browser = await remote({
      hostname: "127.0.0.1",
      port,
      logLevel: "error",
      connectionRetryCount: 20,
      capabilities: {
        // Classic WebDriver: WebKitWebDriver refuses the capabilities of a BiDi session.
        "wdio:enforceWebDriverClassic": true,
        // Commands do not wait for loads (this file does): a page restored from the back/forward
        // cache fires none, and WebKitWebDriver would wait for it for ever.
        pageLoadStrategy: "none",
        "webkitgtk:browserOptions": { binary: BARE_BROWSER, args: ["--automation", ...(scripts ? [] : ["--no-page-scripts"])] },
      } as WebdriverIO.Capabilities,
    });
    let read = 0;
    return {
      driver: {
        name: `WebKitGTK ${found.version}`,
        setViewport: async (width, height) => {
          await browser.setWindowSize(width, height);
        },
        // As long as Puppeteer's page.goto waits on Firefox (30 s: a loaded machine), and saying where
        // the page was if it never arrived.
        goto: async (url) => {
          const to = new URL(url).href;
          let seen = "nothing yet";
          await navigate(url, () => browser.url(url));
          await until(
            `${url} to reach readyState "complete"`,
            async () => {
              const [href, readyState] = await browser.execute(() => [location.href, document.readyState]);
              seen = `${href} (${readyState})`;
              return href === to && readyState === "complete";
            },
            30_000,
          ).catch((error: Error) => {
            throw new Error(`${error.message}; the page was at ${seen}`);
          });
        },
        evaluate: async (fn, ...args) => {
          await settled();
          return browser.execute(fn as never, ...(args as unknown as never[])) as never;
        },
        click: async (selector) => {
          await settled();
          const element = await browser.$(selector);
          await element.waitForDisplayed();
          await browser.execute(scrollToCentre, element as unknown as HTMLElement);
          await element.click();
        },
        pressAt: async (x, y, holdMs) => {
          await settled();
          await browser.performActions([
            {
              type: "pointer",
              id: "mouse",
              parameters: { pointerType: "mouse" },
              actions: [
                { type: "pointerMove", x: Math.round(x), y: Math.round(y), origin: "viewport", duration: 0 },
                { type: "pointerDown", button: 0 },
                { type: "pause", duration: holdMs },
                { type: "pointerUp", button: 0 },
              ],
            },
          ]);
          await browser.releaseActions();
        },
        // One key per action: given several at once, WebKitWebDriver sends the keyup of the last
        // only, and the page would take the others for keys still held down.
        type: async (text) => {
          for (const key of text) await browser.keys(key);
        },
        // WebDriver's Back waits for a load that a page from the back/forward cache never fires.
        back: async () => {
          const from = await browser.execute(() => location.href);
          await navigate("Back", () => browser.execute(() => void setTimeout(() => history.back(), 0)));
          await until("the previous page", () =>
            browser.execute((left) => location.href !== left && document.readyState === "complete", from),
          );
        },
        forward: async () => {
          await browser.execute(markDocument);
          await navigate("Forward", () => browser.execute(() => void setTimeout(() => history.forward(), 0)));
          await until("the next page", () => browser.execute(isNewDocument));
        },
        reload: async () => {
          await browser.execute(markDocument);
          await navigate("Reload", () => browser.execute(() => void setTimeout(() => location.reload(), 0)));
          await until("the page again", () => browser.execute(isNewDocument));
        },
        takeConsoleErrors: async () => {
          const text = logText();
          const lines = text.slice(read).split("\n");
          read = text.length;
          return lines.filter((line) => /CONSOLE( \w+)? ERROR/.test(line));
        },
        screenshot: async (file) => void (await browser.saveScreenshot(file)),
        close: async () => {
          await browser.deleteSession().catch(() => undefined);
          stop();
        },
      },
    };
  } catch (error) {
    stop();
    throw error;
  }
}
