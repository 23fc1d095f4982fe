import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFERRED_REL, DEFERRED_TYPES, hydrateOnIntent, INTENT_EVENTS } from "./hydrate-on-intent";

describe("deferred hydration (browser half)", () => {
  afterEach(() => {
    document.head.innerHTML = "";
    document.body.innerHTML = "";
  });

  function page() {
    document.body.innerHTML =
      `<link ${DEFERRED_REL}="modulepreload" href="/build/a.js"><link ${DEFERRED_REL}="modulepreload" href="/build/b.js">` +
      `<script type="${DEFERRED_TYPES.script}">window.__remixContext = {};</script>` +
      `<script type="${DEFERRED_TYPES.module}">import("/build/a.js");</script>`;
    const appended: HTMLScriptElement[] = [];
    const append = vi.spyOn(document.head, "append").mockImplementation((...nodes) => void appended.push(...(nodes as HTMLScriptElement[])));
    hydrateOnIntent(INTENT_EVENTS, DEFERRED_REL, DEFERRED_TYPES);
    return { appended, append };
  }

  it("does nothing until the visitor shows intent", () => {
    const { appended } = page();
    expect(document.querySelectorAll(`link[${DEFERRED_REL}]`)).toHaveLength(2);
    expect(document.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
    expect(appended).toHaveLength(0);
  });

  it("on the first intent, restores the preloads and runs the context, then the bootstrap module, once", () => {
    const { appended } = page();
    window.dispatchEvent(new Event("pointermove"));
    window.dispatchEvent(new Event("keydown"));
    expect([...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.getAttribute("href"))).toEqual(["/build/a.js", "/build/b.js"]);
    expect(document.querySelectorAll(`link[${DEFERRED_REL}]`)).toHaveLength(0);
    expect(appended.map((s) => [s.type, s.textContent])).toEqual([
      ["", "window.__remixContext = {};"],
      ["module", 'import("/build/a.js");'],
    ]);
    // The original elements now read as React rendered them.
    expect([...document.querySelectorAll("body script")].map((s) => s.getAttribute("type"))).toEqual([null, "module"]);
  });

  for (const event of ["touchstart", "focusin", "scroll", "wheel", "pointerdown", "click", "input"]) {
    it(`counts ${event} as intent`, () => {
      const { appended } = page();
      window.dispatchEvent(new Event(event));
      expect(appended).toHaveLength(2);
    });
  }
});
