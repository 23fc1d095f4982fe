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
 * renders, so hydration sees no difference. It must stay self-contained: it is serialised into the
 * page with `Function.prototype.toString`.
 */
// `click` and `input` too: a screen reader activating a control sends a click without any pointer
// or key event, and autofill or dictation fill a field without keys.
export const INTENT_EVENTS = ["focusin", "pointerdown", "touchstart", "keydown", "click", "input"] as const;
/** The attribute that marks where intent counts (the booking form). */
export const INTENT_ATTRIBUTE = "data-hydrate-on-intent";
export const DEFERRED_REL = "data-deferred-rel";
/** The inert types standing in for a classic script and for `type="module"`. */
export const DEFERRED_TYPES = { script: "text/x-deferred-script", module: "text/x-deferred-module" } as const;

export function hydrateOnIntent(events: readonly string[], intentAttribute: string, relAttribute: string, types: typeof DEFERRED_TYPES) {
  const options = { capture: true, passive: true } as const;
  const start = (event: Event) => {
    if (!(event.target instanceof Element) || !event.target.closest(`[${intentAttribute}]`)) return;
    for (const name of events) removeEventListener(name, start, options);
    document.querySelectorAll<HTMLLinkElement>(`link[${relAttribute}]`).forEach((link) => {
      link.rel = link.getAttribute(relAttribute) ?? "";
      link.removeAttribute(relAttribute);
    });
    // In document order: the context script runs at once, the module after it.
    document.querySelectorAll<HTMLScriptElement>(`script[type="${types.script}"], script[type="${types.module}"]`).forEach((inert) => {
      const isModule = inert.type === types.module;
      if (isModule) inert.type = "module";
      else inert.removeAttribute("type");
      // A script whose type changes does not run; a new one with the same text does (its hash is in the CSP).
      const script = document.createElement("script");
      if (isModule) script.type = "module";
      script.textContent = inert.textContent;
      document.head.append(script);
      script.remove(); // it has run (or, a module, will); the DOM is left as React rendered it
    });
  };
  for (const name of events) addEventListener(name, start, options);
}

/** The inline script's body. */
export function hydrateOnIntentSource() {
  return `(${hydrateOnIntent.toString()})(${JSON.stringify(INTENT_EVENTS)},${JSON.stringify(INTENT_ATTRIBUTE)},${JSON.stringify(DEFERRED_REL)},${JSON.stringify(DEFERRED_TYPES)});`;
}
