/**
 * The browser half of deferred hydration (docs/decisions/008-hydrate-on-intent.md). The home page
 * works completely from its HTML: links, the `<details>` menu, every FAQ answer, and a form that
 * posts to the route's action. React and Remix are the enhancement, so they are fetched and run
 * when the visitor first shows intent - a touch, a key, a scroll, a pointer moving, focus, a click,
 * input - and the first paint has nothing to share the phone's network and CPU with.
 *
 * The server (deferred-hydration.server.ts) writes Remix's module preloads without their `rel`, and
 * its two scripts (the router's context, then the bootstrap module) with inert types; this function,
 * inlined and run at once, restores them on the first intent. The DOM then matches what React
 * renders, so hydration sees no difference. It must stay self-contained: it is serialised into the
 * page with `Function.prototype.toString`.
 */
// `click` and `input` too: a screen reader activating a control sends a click without any pointer
// or key event, and autofill or dictation fill a field without keys.
export const INTENT_EVENTS = ["pointerdown", "pointermove", "touchstart", "keydown", "focusin", "scroll", "wheel", "click", "input"] as const;
export const DEFERRED_REL = "data-deferred-rel";
/** The inert types standing in for a classic script and for `type="module"`. */
export const DEFERRED_TYPES = { script: "text/x-deferred-script", module: "text/x-deferred-module" } as const;

export function hydrateOnIntent(events: readonly string[], relAttribute: string, types: typeof DEFERRED_TYPES) {
  const options = { capture: true, passive: true } as const;
  const start = () => {
    for (const event of events) removeEventListener(event, start, options);
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
  for (const event of events) addEventListener(event, start, options);
}

/** The inline script's body. */
export function hydrateOnIntentSource() {
  return `(${hydrateOnIntent.toString()})(${JSON.stringify(INTENT_EVENTS)},${JSON.stringify(DEFERRED_REL)},${JSON.stringify(DEFERRED_TYPES)});`;
}
