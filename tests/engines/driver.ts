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
  /** Key presses into whatever has focus. */
  type(text: string): Promise<void>;
  /** The browser's Back button; resolves once the previous page is there again. */
  back(): Promise<void>;
  /** The page's console errors and uncaught exceptions since the last call, and forgets them. */
  takeConsoleErrors(): Promise<string[]>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
};

/** A driver, or why this machine cannot run the engine (the journey is then skipped, saying so). */
export type Launch = { driver: Driver } | { missing: string };

/**
 * Brings an element to the middle of the screen at once, before a click: the page scrolls smoothly
 * while anything in it has focus (app/styles/global.css.ts), and a click computed before a smooth
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
