/**
 * Firefox, driven over WebDriver BiDi by puppeteer-core: Debian's firefox-esr (or FIREFOX_PATH), no
 * geckodriver and no browser download. Headless; its classic scrollbars make a 360 px window lay out
 * at 348 px, as on a desktop.
 */
import { existsSync } from "node:fs";
import puppeteer, { type HTTPRequest } from "puppeteer-core";
import { isMarkedDocument, isNewDocument, markDocument, scrollToCentre, until, type Launch, type LaunchOptions } from "./driver";

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

export async function launchFirefox({ scripts, backForwardCache = false }: LaunchOptions = { scripts: true }): Promise<Launch> {
  if (!existsSync(FIREFOX_PATH)) return { missing: `no Firefox at ${FIREFOX_PATH} (apt-get install firefox-esr, or set FIREFOX_PATH)` };
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX_PATH,
    headless: true,
    // By default no back/forward cache: Back loads the page again, the path where browsers restore a form
    // only in part (a page the browser evicted; Chromium's tests run so too).
    // Without scripts: JavaScript off, as in the browser's own settings.
    extraPrefsFirefox: {
      ...(backForwardCache ? {} : { "browser.sessionhistory.max_total_viewers": 0 }),
      ...(scripts ? {} : { "javascript.enabled": false }),
    },
  });
  const page = await browser.newPage();
  // With the page's scripts off, the driver's own run in an isolated realm (the DOM, not the page's globals).
  // (`isolatedRealm` is Puppeteer's own, marked internal: the realm its queries run in.)
  const realm = () =>
    scripts ? page : (page.mainFrame() as unknown as { isolatedRealm(): Pick<typeof page, "evaluate"> }).isolatedRealm();
  const evaluate = <T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<T> =>
    realm().evaluate(fn as never, ...(args as unknown as never[])) as never;
  /** Resolves once `go` has brought another document, fully loaded. */
  const navigate = async (what: string, go: () => Promise<unknown>) => {
    await evaluate(markDocument);
    await go();
    await until(what, () => evaluate(isNewDocument));
  };
  // What the page loaded and lost, for a failure's report: the documents it went to, the requests that failed, what it logged.
  const events: string[] = [];
  const started = Date.now();
  const event = (line: string) => events.push(`${String(Date.now() - started).padStart(6)} ms  ${line}`);
  const errors: Promise<string>[] = [];
  // An error logged with an Error object reads "JSHandle@error" in message.text(): its message is fetched.
  page.on("console", (message) => {
    const text = Promise.all(
      message
        .args()
        .map((arg) =>
          arg.evaluate((value) => (value instanceof Error ? `${value.name}: ${value.message}` : String(value))).catch(() => String(arg)),
        ),
    ).then((parts) => (parts.length > 0 ? parts.join(" ") : message.text()));
    if (message.type() === "error") errors.push(text);
    void text.then((line) => event(`console ${message.type()}: ${line}`));
  });
  page.on("pageerror", (error) => errors.push(Promise.resolve(error instanceof Error ? error.message : String(error))));
  page.on("framenavigated", (frame) => frame === page.mainFrame() && event(`document ${frame.url()}`));
  page.on("requestfailed", (request) => event(`failed ${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
  const version = await browser.version();
  return {
    driver: {
      name: version.replace("/", " "),
      setViewport: (width, height) => page.setViewport({ width, height }),
      goto: async (url) => {
        event(`driver: go to ${url}`);
        await evaluate(markDocument).catch(() => undefined);
        const before = await evaluate(() => location.href).catch(() => "");
        if (backForwardCache) {
          // Puppeteer never sees the load of a page gone to from one Back showed from the cache (Firefox
          // 153), and a navigation of the driver's own kept no page in the cache: the page goes itself, as
          // a link does, and says when the new document has loaded.
          await evaluate((to) => void setTimeout(() => (location.href = to), 0), url).catch(() => undefined);
          const to = new URL(url).href;
          await until(
            `${url} loaded`,
            () =>
              evaluate(
                (href) =>
                  !document.documentElement.hasAttribute("data-driver-seen") &&
                  document.readyState === "complete" &&
                  location.href === href,
                to,
              ),
            30_000,
          );
          return;
        }
        try {
          await page.goto(url, { waitUntil: "load" });
        } catch (error) {
          // Firefox cancelled the navigation (CI, twice, under full load; not reproduced alone). The page's own
          // doing would leave it elsewhere: another document, another address (a post, a link, a reload). Only
          // when it is still the same document at the same address is this Firefox's, and the driver goes again.
          if (!/NS_BINDING_ABORTED/.test(String(error))) throw error;
          const still = await evaluate(isMarkedDocument)
            .then(async (same) => same && (await evaluate(() => location.href)) === before)
            .catch(() => false);
          if (!still) throw new Error(`${String(error)}\nthe page went elsewhere itself:\n${events.join("\n")}`);
          console.log(
            `engines: Firefox cancelled the navigation to ${url} with the page still at ${before}; going again:\n${events.join("\n")}`,
          );
          await page.goto(url, { waitUntil: "load" });
        }
      },
      evaluate,
      click: async (selector) => {
        event(`driver: click ${selector}`);
        if (scripts) {
          const element = await page.waitForSelector(selector, { visible: true });
          await element!.evaluate(scrollToCentre);
          await element!.click();
          return;
        }
        // A real pointer click at the element's centre, found from the isolated realm.
        const centre = await until(`${selector} on screen`, () =>
          evaluate((s: string) => {
            const element = document.querySelector(s);
            if (!element) return null;
            element.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
            const box = element.getBoundingClientRect();
            return box.width > 0 && box.height > 0 ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null;
          }, selector),
        );
        await page.mouse.click(centre.x, centre.y);
      },
      pressAt: async (x, y, holdMs) => {
        event(`driver: press at ${x},${y} for ${holdMs} ms`);
        await page.mouse.move(x, y);
        await page.mouse.down();
        await new Promise((resolve) => setTimeout(resolve, holdMs));
        await page.mouse.up();
      },
      type: (text) => page.keyboard.type(text, { delay: 20 }),
      // page.goBack() may never return for a page restored from the back/forward cache.
      back: async () => {
        event("driver: back");
        // Without scripts the page runs no timers: the browser's own Back (no back/forward cache here).
        if (!scripts) return navigate("the previous page", () => page.goBack({ waitUntil: "load" }));
        const from = await evaluate(() => location.href);
        await evaluate(() => void setTimeout(() => history.back(), 0));
        await until("the previous page", () => evaluate((left) => location.href !== left && document.readyState === "complete", from));
      },
      forward: () => navigate("the next page", () => page.goForward({ waitUntil: "load" })),
      reload: () => navigate("the page again", () => page.reload({ waitUntil: "load" })),
      takeConsoleErrors: () => Promise.all(errors.splice(0)),
      takeEvents: () => events.splice(0),
      failNextRequest: async (pattern) => {
        let done = false;
        let onRequest: (request: HTTPRequest) => void = () => {};
        const failed = new Promise<string>((resolve) => {
          // A request met as interception is being turned off may refuse either answer: it goes on by itself.
          onRequest = (request) => {
            if (request.isInterceptResolutionHandled()) return;
            if (done || !pattern.test(request.url())) return void request.continue().catch(() => undefined);
            done = true;
            void request
              .abort("failed")
              .catch(() => undefined)
              .then(() => resolve(request.url()));
          };
        });
        page.on("request", onRequest);
        await page.setRequestInterception(true);
        return {
          failed,
          stop: async () => {
            await page.setRequestInterception(false);
            page.off("request", onRequest);
          },
        };
      },
      screenshot: async (path) => void (await page.screenshot({ path: path as `${string}.png` })),
      close: () => browser.close(),
    },
  };
}
