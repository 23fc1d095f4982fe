/**
 * The browser half of deferred hydration (docs/decisions/008 and 016). The home page works completely
 * from its HTML: links, the `<details>` menu, every FAQ answer (native `<details>`), and a form that
 * posts to the route's action. React and Remix are needed for one thing only: the booking form's
 * browser path (supabase-js, the spec's toasts and "Sending..." state). So they are fetched and run
 * when the visitor heads for the form: a focus, touch, pointer press, key, click or input inside an
 * element marked `data-hydrate-on-intent`. Scrolling, reading, the menu, Book Now and the FAQ never
 * wake them: those taps cost exactly what they cost in plain HTML.
 *
 * The server (deferred-hydration.server.ts) writes Remix's module preloads without their `rel`, and
 * its two scripts (the router's context, then the bootstrap module) with inert types; this function,
 * inlined and run at once, restores them on that first intent. The DOM then matches what React
 * renders, so hydration sees no difference.
 *
 * The modules start downloading at the visitor's first short pause (PAUSE_MS), never inside their tap
 * or between two keys. They run only once all have arrived, and only while the visitor is not typing,
 * tapping or scrolling (no key or pointer down, none for QUIET_MS: app/hydration/inline-input-tracker.ts):
 * evaluating a module is one task that cannot be split (React then hydrates in slices, with the
 * visitor's input held back from it: hold-input-from-react.ts). The shared library chunks (React, the router)
 * are evaluated one per task first, each at such a quiet moment, then the bootstrap module. A visitor who sends before that posts the
 * form without JavaScript, which works. It must stay self-contained: it is serialised into the page
 * with `Function.prototype.toString`.
 */
import { INPUT_STATE_GLOBAL } from "./inline-input-tracker";

// `click` and `input` too: a screen reader activating a control sends a click without any pointer
// or key event, and autofill or dictation fill a field without keys.
export const INTENT_EVENTS = ["focusin", "pointerdown", "touchstart", "keydown", "click", "input"] as const;
/** The attribute that marks where intent counts (the booking form). */
export const INTENT_ATTRIBUTE = "data-hydrate-on-intent";
export const DEFERRED_REL = "data-deferred-rel";
/** The inert types standing in for a classic script and for `type="module"`. */
export const DEFERRED_TYPES = { script: "text/x-deferred-script", module: "text/x-deferred-module" } as const;
/** How long the visitor's keys, pointer and scrolling must be still before the page's scripts run. */
export const QUIET_MS = 700;

/** How long the visitor's keys and pointer must be still before the modules start downloading. */
export const PAUSE_MS = 300;

type Quiet = { inputState: string; quietMs: number; pauseMs: number };

export function hydrateOnIntent(
  events: readonly string[],
  intentAttribute: string,
  relAttribute: string,
  types: typeof DEFERRED_TYPES,
  quiet: Quiet,
) {
  const options = { capture: true, passive: true } as const;
  const start = (event: Event) => {
    if (!(event.target instanceof Element) || !event.target.closest(`[${intentAttribute}]`)) return;
    for (const name of events) removeEventListener(name, start, options);
    // Nothing more inside the visitor's tap or key: the fetches begin after the frame that answers it
    // is on screen (a task queued from the next animation frame runs after that frame's paint), and
    // not between two keys: at the visitor's first short pause.
    const whenPaused = () => (busy(quiet.pauseMs) ? void setTimeout(whenPaused, 100) : begin());
    requestAnimationFrame(() => setTimeout(whenPaused, 0));
  };
  const input = (window as unknown as Record<string, { busy(quietMs: number): boolean } | undefined>)[quiet.inputState];
  const busy = (ms: number) => !!input && input.busy(ms);
  const begin = () => {
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
      if (link.href.includes("/_shared/")) chunks.push(link.href);
    });
    // A script whose type changes does not run; a new one with the same text does (its hash is in the CSP).
    const run = (inert: HTMLScriptElement | null) => {
      if (!inert || (inert.type !== types.module && inert.type !== types.script)) return; // none, or it has run
      const isModule = inert.type === types.module;
      if (isModule) inert.type = "module";
      else inert.removeAttribute("type");
      const script = document.createElement("script");
      if (isModule) script.type = "module";
      script.textContent = inert.textContent;
      document.head.append(script);
      script.remove(); // it has run (or, a module, will); the DOM is left as React rendered it
    };
    // The router's context first; then the library chunks, one per task (pure code: evaluating them
    // early changes nothing but when the work happens); then the bootstrap module, each step at a
    // quiet moment. If a chunk fails to load, the bootstrap fails the same way and the page stays the
    // working no-JavaScript page.
    run(document.querySelector<HTMLScriptElement>(`script[type="${types.script}"]`));
    const bootstrap = document.querySelector<HTMLScriptElement>(`script[type="${types.module}"]`);
    const next = () => {
      if (busy(quiet.quietMs)) return void setTimeout(next, 100);
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
}

/** The inline script's body. */
export function hydrateOnIntentSource() {
  const quiet: Quiet = { inputState: INPUT_STATE_GLOBAL, quietMs: QUIET_MS, pauseMs: PAUSE_MS };
  return `(${hydrateOnIntent.toString()})(${[INTENT_EVENTS, INTENT_ATTRIBUTE, DEFERRED_REL, DEFERRED_TYPES, quiet].map((arg) => JSON.stringify(arg)).join(",")});`;
}
