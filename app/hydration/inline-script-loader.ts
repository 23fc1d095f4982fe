/**
 * Inlined in the page: fetches and runs the page's scripts when the visitor starts on the booking form
 * (docs/decisions/008, 016 and 019). The home page works completely from its HTML: links, the
 * `<details>` menu, every FAQ answer (native `<details>`), and a form that posts to the route's action.
 * React and Remix are needed for one thing only: the booking form's browser path (supabase-js, the
 * spec's toasts and "Sending..." state). So they are fetched and run when the visitor heads for the
 * form: a focus, touch, pointer press, key, click or input inside an element marked
 * `data-hydrate-on-intent`. Scrolling, reading, the menu, Book Now and the FAQ never wake them: those
 * taps cost exactly what they cost in plain HTML.
 *
 * The server (deferred-hydration.server.ts) writes Remix's module preloads as links that fetch nothing,
 * and its two scripts (the router's context, then the bootstrap module) with inert types; this
 * function, inlined and run at once, restores them. The DOM then matches what React renders, so
 * hydration sees no difference.
 *
 * The modules start downloading after the frame that answers the visitor's first tap or key is on
 * screen, once no key or pointer is held (PAUSE_MS). They run only once all have arrived, and only at a
 * quiet moment (no key or pointer down, none for QUIET_MS: inline-input-tracker.ts): evaluating a
 * module is one task that cannot be split. The shared library chunks (React, the router) are
 * evaluated one per task first, each at such a moment, then the bootstrap module, after which React
 * hydrates in slices with the visitor's input kept from it (guard-input-from-react.ts). A Send
 * before then (inline-send-before-hydration.ts) asks for the scripts at once (HURRY_EVENT): no pause,
 * no quiet moment. If they cannot run (a download failed), it says so (SCRIPTS_FAILED_EVENT) and the
 * form posts without JavaScript. It must stay self-contained: it is serialised into the page with
 * `Function.prototype.toString`.
 */
import { SHARED_CHUNK_PATH } from "./framework-assumptions";
import { INPUT_TRACKER_GLOBAL } from "./inline-input-tracker";

// `click` and `input` too: a screen reader activating a control sends a click without any pointer
// or key event, and autofill or dictation fill a field without keys.
export const INTENT_EVENTS = ["focusin", "pointerdown", "touchstart", "keydown", "click", "input"] as const;
/** The attribute that marks where intent counts (the booking form). */
export const INTENT_ATTRIBUTE = "data-hydrate-on-intent";
/** Where a deferred module preload keeps its `rel`, and the `rel` it has meanwhile (fetches nothing). */
export const DEFERRED_REL = "data-deferred-rel";
export const INERT_REL = "pingback";
/** Where the inert bootstrap keeps its `async`. */
export const DEFERRED_ASYNC = "data-deferred-async";
/** The inert types standing in for a classic script and for `type="module"`. */
export const DEFERRED_TYPES = { script: "text/x-deferred-script", module: "text/x-deferred-module" } as const;
/** How long the visitor's keys, pointer and scrolling must be still before a module is evaluated. */
export const QUIET_MS = 200;
/**
 * How long the visitor's keys and pointer must be still before the modules start downloading: none, only
 * released. A download costs the page nothing until its module is evaluated, which waits for QUIET_MS; a
 * pause here only delayed every hand's hydration (decision 026 has the measurements).
 */
export const PAUSE_MS = 0;
/** Dispatched on `window` to ask for the scripts now (a Send before hydration). */
export const HURRY_EVENT = "page-scripts:hurry";
/** Dispatched on `window` when the scripts cannot run (a module failed to download). */
export const SCRIPTS_FAILED_EVENT = "page-scripts:failed";

export type LoaderConfig = {
  events: readonly string[];
  intentAttribute: string;
  relAttribute: string;
  asyncAttribute: string;
  types: typeof DEFERRED_TYPES;
  sharedChunkPath: string;
  inputTracker: string;
  quietMs: number;
  pauseMs: number;
  hurryEvent: string;
  failedEvent: string;
};

export function loadScriptsOnIntent(config: LoaderConfig) {
  const { events, intentAttribute, relAttribute, asyncAttribute, types, quietMs, pauseMs } = config;
  const options = { capture: true, passive: true } as const;
  let begun = false;
  let hurried = false;
  const input = (window as unknown as Record<string, { busy(quietMs: number): boolean } | undefined>)[config.inputTracker];
  const busy = (ms: number) => !hurried && !!input && input.busy(ms);
  const stopListening = () => {
    for (const name of events) removeEventListener(name, start, options);
  };
  const start = (event: Event) => {
    if (!(event.target instanceof Element) || !event.target.closest(`[${intentAttribute}]`)) return;
    stopListening();
    // Nothing more inside the visitor's tap or key: the fetches begin after the frame that answers it
    // is on screen (a task queued from the next animation frame runs after that frame's paint), once the
    // key or pointer is released. (Begun in the same task instead, the downloads shared the cores with the
    // frame a focus far down the page must draw, and a focus by script took longer: decision 026.)
    const whenPaused = () => (busy(pauseMs) ? void setTimeout(whenPaused, 25) : begin());
    requestAnimationFrame(() => setTimeout(whenPaused, 0));
  };
  const failed = () => dispatchEvent(new Event(config.failedEvent));
  const begin = () => {
    if (begun) return;
    begun = true;
    const chunks: string[] = [];
    const loads: Promise<unknown>[] = [];
    // A browser without module preloads (Safari before 17) never fires their load: it fetches on import.
    let preloads = false;
    try {
      preloads = document.createElement("link").relList.supports("modulepreload");
    } catch {
      // relList.supports unknown: as without module preloads
    }
    document.querySelectorAll<HTMLLinkElement>(`link[${relAttribute}]`).forEach((link) => {
      // Loaded or failed, either way it has settled (a failed module fails the bootstrap, which leaves
      // the page as the working no-JavaScript page).
      if (preloads)
        loads.push(new Promise((settled) => ["load", "error"].forEach((type) => link.addEventListener(type, settled, { once: true }))));
      link.rel = link.getAttribute(relAttribute) ?? "";
      link.removeAttribute(relAttribute);
      if (link.href.includes(config.sharedChunkPath)) chunks.push(link.href);
    });
    // A script whose type changes does not run; a new one with the same text does (its hash is in the CSP).
    const run = (inert: HTMLScriptElement | null) => {
      if (!inert || (inert.type !== types.module && inert.type !== types.script)) return; // none, or it has run
      const isModule = inert.type === types.module;
      if (isModule) inert.type = "module";
      else inert.removeAttribute("type");
      if (inert.hasAttribute(asyncAttribute)) {
        inert.removeAttribute(asyncAttribute);
        inert.setAttribute("async", "");
      }
      const script = document.createElement("script");
      if (isModule) script.type = "module";
      script.textContent = inert.textContent;
      // A module whose imports cannot be fetched fires `error` at its element: the scripts cannot run.
      script.addEventListener("error", failed);
      document.head.append(script);
      script.remove(); // it has run (or, a module, will); the DOM is left as React rendered it
    };
    // The router's context first; then the library chunks, one per task (pure code: evaluating them
    // early changes nothing but when the work happens); then the bootstrap module, each step at a
    // quiet moment. If a chunk fails to load, the bootstrap fails the same way.
    run(document.querySelector<HTMLScriptElement>(`script[type="${types.script}"]`));
    const bootstrap = document.querySelector<HTMLScriptElement>(`script[type="${types.module}"]`);
    const next = () => {
      if (busy(quietMs)) return void setTimeout(next, 25);
      const chunk = chunks.shift();
      if (chunk === undefined) return run(bootstrap);
      import(chunk).then(
        () => setTimeout(next, 0),
        () => run(bootstrap),
      );
    };
    // Nothing runs until every module has arrived: evaluating one is then all a step costs, and it
    // happens at the quiet moment it was started in (a download that ends mid-typing runs nothing).
    Promise.all(loads).then(next);
  };
  for (const name of events) addEventListener(name, start, options);
  addEventListener(config.hurryEvent, () => {
    hurried = true;
    stopListening();
    begin();
  });
}

/** The inline script's body. */
export function inlineScriptLoaderSource() {
  const config: LoaderConfig = {
    events: INTENT_EVENTS,
    intentAttribute: INTENT_ATTRIBUTE,
    relAttribute: DEFERRED_REL,
    asyncAttribute: DEFERRED_ASYNC,
    types: DEFERRED_TYPES,
    sharedChunkPath: SHARED_CHUNK_PATH,
    inputTracker: INPUT_TRACKER_GLOBAL,
    quietMs: QUIET_MS,
    pauseMs: PAUSE_MS,
    hurryEvent: HURRY_EVENT,
    failedEvent: SCRIPTS_FAILED_EVENT,
  };
  return `(${loadScriptsOnIntent.toString()})(${JSON.stringify(config)});`;
}
