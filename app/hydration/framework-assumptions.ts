/**
 * Every assumption the hydration layer makes about React, Remix and Remix's compiler that no type
 * states: the markup `<Scripts>` renders, private globals, the compiler's chunk path, react-dom's
 * internal event lists, and two behaviours. Each names the package version and file it was read
 * from. `framework-assumptions.test.tsx` reads the installed packages and fails, naming the
 * assumption, when an upgrade changes one (docs/decisions/019). At run time a broken assumption
 * falls back to what React and Remix do by default: the document served as Remix rendered it
 * (deferred-hydration.server.ts), the modules run as they are (inline-script-loader.ts), React
 * hydrating with the visitor's input (guard-input-from-react.ts), never a page that cannot send.
 */

/** The versions every assumption below was read from. */
export const READ_FROM = {
  "react-dom": "18.3.1",
  "@remix-run/react": "2.17.5",
  "@remix-run/dev": "2.17.5",
  "@remix-run/router": "1.23.3",
  scheduler: "0.23.2",
} as const;

/**
 * What Remix 2's `<Scripts>` renders into a document (@remix-run/react 2.17.5, dist/components.js,
 * `Scripts`): a `<link rel="modulepreload">` per module, one classic script that sets the private
 * global `window.__remixContext`, then one inline `type="module"` `async` bootstrap that imports the
 * route modules and the client entry. deferred-hydration.server.ts rewrites exactly these; a
 * document without exactly one context and one bootstrap is served untouched (and hydrates at once).
 */
export const SCRIPTS_MARKUP = {
  modulePreload: '<link rel="modulepreload"',
  context: "<script>window.__remixContext = ",
  bootstrap: '<script type="module" async=""',
} as const;

/** Remix's private global with the router's server state (the same Scripts); read by RemixBrowser. */
export const REMIX_CONTEXT_GLOBAL = "__remixContext";

/**
 * The classic compiler writes the library code its entries share (React, react-dom, the router)
 * as chunks under `build/_shared/` (@remix-run/dev 2.17.5, dist/compiler/js/compiler.js,
 * `chunkNames: "_shared/[name]-[hash]"`). inline-script-loader.ts evaluates those one per quiet
 * task before the bootstrap; with none found it runs the bootstrap, which imports them all at once.
 */
export const SHARED_CHUNK_PATH = "/_shared/";

/**
 * The events react-dom 18.3's root listener hydrates a not-yet-hydrated part for, inside the event
 * (react-dom 18.3.1, cjs/react-dom.development.js: `discreteReplayableEvents`), and the continuous
 * ones it queues and hydrates for in an unsliced task (`queueIfContinuousEvent`).
 * guard-input-from-react.ts stops these at the window until every part has hydrated. If react-dom
 * is not 18.3 at run time, nothing is held: React hydrates as it does by default.
 */
export const REACT_HYDRATING_EVENTS = {
  discrete: [
    "mousedown",
    "mouseup",
    "touchcancel",
    "touchend",
    "touchstart",
    "auxclick",
    "dblclick",
    "pointercancel",
    "pointerdown",
    "pointerup",
    "dragend",
    "dragstart",
    "drop",
    "compositionend",
    "compositionstart",
    "keydown",
    "keypress",
    "keyup",
    "input",
    "textInput",
    "copy",
    "cut",
    "paste",
    "click",
    "change",
    "contextmenu",
    "reset",
    "submit",
  ],
  continuous: ["focusin", "dragenter", "mouseover", "pointerover", "gotpointercapture"],
} as const;

/**
 * At hydration react-dom 18.3 compares an element's single text child with the DOM; where they
 * differ and the element has `suppressHydrationWarning`, it writes its own text at commit instead of
 * throwing away the part (react-dom 18.3.1, `diffHydratedProperties`: `rawProps[SUPPRESS_HYDRATION_WARNING]
 * !== true` guards `checkForUnmatchedText`, then `updatePayload = [CHILDREN, nextProp]`). It does not
 * correct attributes (`disabled`, `readonly`). The booking form's Send button relies on this: a Send
 * pressed before hydration writes "Sending..." into it (inline-send-before-hydration.ts).
 */
export const HYDRATION_TEXT_PATCH = {
  guard: "if (rawProps[SUPPRESS_HYDRATION_WARNING] !== true) { checkForUnmatchedText(domElement.textContent, nextProp",
  patch: "updatePayload = [CHILDREN, nextProp];",
} as const;

/**
 * React's scheduler (scheduler 0.23.2, cjs/scheduler.development.js and .production.min.js) sends
 * each slice of work as a task through `setImmediate` where that global exists when its code is
 * evaluated (its branch for Node and old IE), else through a MessageChannel of its own.
 * inline-scheduler-channel.ts gives the page a `setImmediate` that survives WebKit's back/forward
 * cache. Where the scheduler stops reading it, React uses its own channel, as by default (and may
 * freeze after Back on WebKit, as before).
 */
export const SCHEDULER_TASKS = {
  captured: "var localSetImmediate = typeof setImmediate !== 'undefined' ? setImmediate : null;",
  preferred: "if (typeof localSetImmediate === 'function') {",
  /** The production build, minified: the same two steps (names differ by build, hence the pattern). */
  minified: /(\w+)="undefined"!==typeof setImmediate\?setImmediate:null;[\s\S]*if\("function"===typeof \1\)\w+=function\(\)\{\1\(/,
} as const;

/** The react-dom release line the event lists and the behaviours below hold for (checked at run time). */
export const REACT_DOM_LINE = "18.3.";

/**
 * RemixBrowser keeps the location in React state and sets it urgently (not in a transition) when the
 * router's state changes (@remix-run/react 2.17.5, dist/browser.js: `router.subscribe(... setLocation
 * ...)`), and the router hears Back and fragment changes as `popstate` on `window` (@remix-run/router
 * 1.23.3, `window.addEventListener(PopStateEventType, handlePop)`). An urgent update that reaches a
 * part React has not hydrated yet makes React drop that part's server HTML and render it afresh:
 * React error 421 (react-dom 18.3.1, "This Suspense boundary received an update before it finished
 * hydrating"), which loses typed text, open answers and focus. guard-input-from-react.ts therefore
 * re-dispatches `popstate` inside `startTransition` while it holds input.
 */
export const ROUTER_POPSTATE = {
  event: "popstate",
  remixBrowserUrgentUpdate: "setLocation(newState.location)",
  routerListener: "window.addEventListener(PopStateEventType, handlePop)",
  react421Message: "'This Suspense boundary received an update before it finished ' + 'hydrating.",
} as const;

/**
 * Whether the react-dom running in the browser is the line the event lists were read from. Where it
 * is not (a bundle built against another version), the input guard is not installed.
 */
export function reactDomLineHolds(version: string): boolean {
  return version.startsWith(REACT_DOM_LINE);
}
