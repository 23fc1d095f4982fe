import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

// The unit project runs its files one after another in a shared environment (vitest.config.ts,
// `isolate: false`: the environment and these imports once per worker, not once per file). So each
// file gets fresh modules (a vi.mock applies to what it imports), and each test a fresh page: what a
// test adds to the window (listeners, globals, storage, nodes, toasts) is taken away after it.
vi.resetModules();

type Listener = [EventTarget, string, EventListenerOrEventListenerObject, boolean | EventListenerOptions | undefined];
const added: Listener[] = [];
let globalsBefore = new Set<string>();

if (typeof window !== "undefined") {
  // Wrapped once per worker: the page's own listeners on window and document are recorded while a test runs.
  const WRAPPED = Symbol.for("unit-setup:listeners");
  const record = window as unknown as Record<symbol, Listener[] | undefined>;
  if (!record[WRAPPED]) {
    for (const target of [window, document] as EventTarget[]) {
      const add = target.addEventListener.bind(target);
      target.addEventListener = (
        type: string,
        listener: EventListenerOrEventListenerObject | null,
        options?: boolean | AddEventListenerOptions,
      ) => {
        if (listener) record[WRAPPED]!.push([target, type, listener, options]);
        add(type, listener, options);
      };
    }
  }
  record[WRAPPED] = added;

  beforeEach(() => {
    added.length = 0;
    globalsBefore = new Set(Object.getOwnPropertyNames(window));
  });
}

// A test that logs console.error fails: React warnings (keys, hydration, act) are bugs here.
beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(" ")}`);
  });
});

afterEach(async () => {
  cleanup();
  if (typeof window === "undefined") return;
  // The toasts' store is the module's own (the instance this file imported).
  (await import("react-hot-toast")).toast.remove();
  for (const [target, type, listener, options] of added.splice(0)) target.removeEventListener(type, listener, options);
  for (const name of Object.getOwnPropertyNames(window))
    if (!globalsBefore.has(name)) delete (window as unknown as Record<string, unknown>)[name];
  document.head.innerHTML = "";
  document.body.innerHTML = "";
  sessionStorage.clear();
  localStorage.clear();
});
