/**
 * What the cross-engine journey needs from a browser, whatever drives it: Firefox over WebDriver BiDi
 * (firefox.ts, puppeteer-core), WebKitGTK over classic W3C WebDriver (webkit.ts, webdriverio).
 * docs/decisions/020-other-engines-from-outside.md says why these and not Playwright's own builds.
 */
export type Driver = {
  /** The engine and its version, for the test's title and the log. */
  readonly name: string;
  setViewport(width: number, height: number): Promise<void>;
  /** Loads `url` and waits for its load event. */
  goto(url: string): Promise<void>;
  /** Runs `fn` in the page (it is serialised: it must use only its arguments). */
  evaluate<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<T>;
  /** A real pointer click at the centre of the first element matching `selector`, scrolled into view. */
  click(selector: string): Promise<void>;
  /** A real mouse press at (x, y) in the viewport, held `holdMs`, then released where the pointer is. */
  pressAt(x: number, y: number, holdMs: number): Promise<void>;
  /** Key presses into whatever has focus. */
  type(text: string): Promise<void>;
  /** The browser's Back button; resolves once the previous page is there again. */
  back(): Promise<void>;
  /** The browser's Forward button; resolves once the next page is there again. */
  forward(): Promise<void>;
  /** The browser's Reload button; resolves once the page has loaded again. */
  reload(): Promise<void>;
  /** The page's console errors and uncaught exceptions since the last call, and forgets them. */
  takeConsoleErrors(): Promise<string[]>;
  /**
   * From now on, the page's next request whose address matches `pattern` fails as a network error would:
   * `failed` is that address once it has failed; `stop()` lets every request through untouched again.
   * Only where the driver can intercept requests (Firefox).
   */
  failNextRequest?(pattern: RegExp): Promise<{ failed: Promise<string>; stop(): Promise<void> }>;
  /** What the page went to and which requests failed since the last call, with their times, for a failure's report. */
  takeEvents?(): string[];
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
};

/** A driver, or why this machine cannot run the engine (the journey is then skipped, saying so). */
export type Launch = { driver: Driver } | { missing: string };

/**
 * `scripts: false`: the browser runs none of the page's scripts, as for a visitor with JavaScript off;
 * the driver's own `evaluate` still reads and moves the page (Firefox: an isolated realm; WebKit: the
 * automation's world with the page's script elements off).
 */
export type LaunchOptions = {
  scripts: boolean;
  /**
   * Whether Back may show a page from the back/forward cache (Firefox; WebKit always may). Off by default:
   * Back then loads the page again, where browsers restore a form only in part.
   */
  backForwardCache?: boolean;
};

/** Marks the document, so that a wait can tell the next document (a reload of the same address) from it. */
export function markDocument() {
  document.documentElement.setAttribute("data-driver-seen", "");
}
/** Whether the document `markDocument` marked is still the one shown. */
export function isMarkedDocument() {
  return document.documentElement.hasAttribute("data-driver-seen");
}
export function isNewDocument() {
  return !document.documentElement.hasAttribute("data-driver-seen") && document.readyState === "complete";
}

/**
 * Brings an element to the middle of the screen at once, before a click: the page scrolls smoothly
 * while a link in it has focus (app/styles/global.css.ts), and a click computed before a smooth
 * scroll ends lands beside its target. (Playwright's own suite asks for reduced motion instead.)
 */
export function scrollToCentre(element: Element) {
  element.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
}

/** Polls `check` until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error; // a page in the middle of navigating
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? ` (${String(last)})` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
