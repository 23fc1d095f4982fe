import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DEFERRED_ASYNC,
  DEFERRED_REL,
  DEFERRED_TYPES,
  HURRY_EVENT,
  INERT_REL,
  INTENT_ATTRIBUTE,
  INTENT_EVENTS,
  loadScriptsOnIntent,
  SCRIPTS_FAILED_EVENT,
  type LoaderConfig,
} from "./inline-script-loader";

const config = (overrides: Partial<LoaderConfig> = {}): LoaderConfig => ({
  events: INTENT_EVENTS,
  intentAttribute: INTENT_ATTRIBUTE,
  relAttribute: DEFERRED_REL,
  asyncAttribute: DEFERRED_ASYNC,
  types: DEFERRED_TYPES,
  sharedChunkPath: "/_shared/",
  inputTracker: "__noInputTrackerInThisTest",
  quietMs: 700,
  pauseMs: 300,
  hurryEvent: HURRY_EVENT,
  failedEvent: SCRIPTS_FAILED_EVENT,
  ...overrides,
});

describe("deferred hydration (browser half)", () => {
  afterEach(() => {
    document.head.innerHTML = "";
    document.body.innerHTML = "";
  });

  function page(overrides: Partial<LoaderConfig> = {}) {
    document.body.innerHTML =
      `<link rel="${INERT_REL}" ${DEFERRED_REL}="modulepreload" href="/build/a.js"><link rel="${INERT_REL}" ${DEFERRED_REL}="modulepreload" href="/build/b.js">` +
      `<p id="text">Text</p><details id="faq"><summary>Q</summary>A</details>` +
      `<form ${INTENT_ATTRIBUTE}><input id="name"></form>` +
      `<script type="${DEFERRED_TYPES.script}">window.__remixContext = {};</script>` +
      `<script type="${DEFERRED_TYPES.module}" ${DEFERRED_ASYNC}="">import("/build/a.js");</script>`;
    const appended: HTMLScriptElement[] = [];
    const append = vi
      .spyOn(document.head, "append")
      .mockImplementation((...nodes) => void appended.push(...(nodes as HTMLScriptElement[])));
    loadScriptsOnIntent(config(overrides));
    return { appended, append };
  }
  const fire = (id: string, type: string) => document.getElementById(id)!.dispatchEvent(new Event(type, { bubbles: true }));
  // The loader's work is queued from the next animation frame; a task queued after it runs after it.
  const afterNextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  /** The restored preloads finish downloading (or fail), as the browser reports it. */
  const arrive = async (outcomes: ("load" | "error")[] = ["load", "load"]) => {
    const links = document.querySelectorAll('link[rel="modulepreload"]');
    outcomes.forEach((type, i) => links[i]!.dispatchEvent(new Event(type)));
    await new Promise((resolve) => setTimeout(resolve, 0));
  };

  it("does nothing until the visitor heads for the form: not for scrolling, reading, the menu or the FAQ", async () => {
    const { appended } = page();
    for (const type of ["scroll", "wheel", "pointermove"]) window.dispatchEvent(new Event(type));
    for (const type of INTENT_EVENTS) {
      fire("text", type);
      fire("faq", type);
    }
    await afterNextPaint();
    expect(document.querySelectorAll(`link[${DEFERRED_REL}]`)).toHaveLength(2);
    expect(document.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
    expect(appended).toHaveLength(0);
  });

  it("does no work inside the visitor's tap or key: it starts after the frame that answers it", async () => {
    const { appended } = page();
    fire("name", "pointerdown");
    expect(document.querySelectorAll(`link[${DEFERRED_REL}]`)).toHaveLength(2);
    expect(appended).toHaveLength(0);
    await afterNextPaint();
    expect(document.querySelectorAll(`link[${DEFERRED_REL}]`)).toHaveLength(0);
    await arrive();
    expect(appended).toHaveLength(2);
  });

  it("fetches nothing between two keys: it waits for the visitor's first short pause", async () => {
    let typing = true;
    (window as unknown as Record<string, unknown>).__typingInThisTest = { busy: (ms: number) => typing && ms === 300 };
    document.body.innerHTML = `<link ${DEFERRED_REL}="modulepreload" href="/build/a.js"><form ${INTENT_ATTRIBUTE}><input id="name"></form>`;
    loadScriptsOnIntent(config({ inputTracker: "__typingInThisTest" }));
    fire("name", "keydown");
    await afterNextPaint();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(document.querySelectorAll(`link[${DEFERRED_REL}]`)).toHaveLength(1);
    typing = false;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(document.querySelectorAll(`link[${DEFERRED_REL}]`)).toHaveLength(0);
  });

  it("runs no module until every one has arrived; one that failed counts (the bootstrap then fails, leaving the working page)", async () => {
    const { appended } = page();
    fire("name", "focusin");
    await afterNextPaint();
    expect(appended.map((s) => s.type)).toEqual([""]); // the router's context only
    await arrive(["load"]);
    expect(appended).toHaveLength(1);
    document.querySelectorAll('link[rel="modulepreload"]')[1]!.dispatchEvent(new Event("error"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(appended.map((s) => s.type)).toEqual(["", "module"]);
  });

  it("on the first intent in the form, restores the preloads and runs the context, then the bootstrap module, once", async () => {
    const { appended } = page();
    fire("name", "focusin");
    fire("name", "keydown");
    await afterNextPaint();
    await arrive();
    expect([...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.getAttribute("href"))).toEqual([
      "/build/a.js",
      "/build/b.js",
    ]);
    expect(document.querySelectorAll(`link[${DEFERRED_REL}]`)).toHaveLength(0);
    expect(appended.map((s) => [s.type, s.textContent])).toEqual([
      ["", "window.__remixContext = {};"],
      ["module", 'import("/build/a.js");'],
    ]);
    // The original elements now read as React rendered them.
    expect([...document.querySelectorAll("body script")].map((s) => s.getAttribute("type"))).toEqual([null, "module"]);
    expect(document.querySelector("body script[type=module]")!.hasAttribute("async")).toBe(true);
    expect(document.querySelector(`[${DEFERRED_ASYNC}]`)).toBeNull();
  });

  for (const event of INTENT_EVENTS) {
    it(`counts ${event} in the form as intent`, async () => {
      const { appended } = page();
      fire("name", event);
      await afterNextPaint();
      await arrive();
      expect(appended).toHaveLength(2);
    });
  }

  it("a Send before hydration asks for the scripts at once: no pause, no quiet moment, even mid-typing", async () => {
    (window as unknown as Record<string, unknown>).__alwaysTypingInThisTest = { busy: () => true };
    const { appended } = page({ inputTracker: "__alwaysTypingInThisTest" });
    window.dispatchEvent(new Event(HURRY_EVENT));
    expect(document.querySelectorAll(`link[${DEFERRED_REL}]`)).toHaveLength(0);
    await arrive();
    expect(appended.map((s) => s.type)).toEqual(["", "module"]);
  });

  it("says so when the scripts cannot run (the bootstrap's imports failed), so the form can post", async () => {
    const { appended } = page();
    const failed = vi.fn();
    window.addEventListener(SCRIPTS_FAILED_EVENT, failed);
    fire("name", "focusin");
    await afterNextPaint();
    await arrive(["error", "error"]);
    appended[1]!.dispatchEvent(new Event("error"));
    expect(failed).toHaveBeenCalledTimes(1);
    window.removeEventListener(SCRIPTS_FAILED_EVENT, failed);
  });

  it("with no chunk under the compiler's shared path (another compiler), runs the bootstrap, which imports everything", async () => {
    const { appended } = page({ sharedChunkPath: "/_no-such-path_/" });
    fire("name", "focusin");
    await afterNextPaint();
    await arrive();
    expect(appended.map((s) => s.type)).toEqual(["", "module"]);
  });
});
