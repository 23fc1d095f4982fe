import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { toast } from "react-hot-toast";
import { afterAll, afterEach, beforeEach, vi } from "vitest";

// The unit project runs its files one after another in a shared environment (vitest.config.ts,
// `isolate: false`: the environment once per worker, not once per file). So each file gets fresh
// modules of its own (a vi.mock applies to what it imports), and each test a fresh page: what a test
// adds to the window (listeners, globals, attributes, storage, nodes, toasts) is taken away after it,
// and what a file added outside its tests (as it loaded, or in beforeAll) after the file, with its
// timers. Packages in node_modules are loaded once per worker (Node's own modules: Testing Library,
// react-hot-toast's store, react-dom's bookkeeping), so what they keep is put back here too.
vi.resetModules();
// React 18 warns of an update outside act() only where this is set. Testing Library sets it when it is
// loaded, once per worker, and puts it back after that first file: every file sets it here.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Listener = [EventTarget, string, EventListenerOrEventListenerObject, boolean | EventListenerOptions | undefined];
const added: Listener[] = [];
let fromTest = 0;
let globalsBefore = new Set<string>();
let htmlAttributes: [string, string][] = [];

function removeListeners(from: number) {
  for (const [target, type, listener, options] of added.splice(from)) target.removeEventListener(type, listener, options);
  // react-dom listens for selectionchange once per document, and marks the document so: the listener
  // is gone, so the mark goes too.
  for (const key of Object.keys(document)) if (key.startsWith("_reactListening")) Reflect.deleteProperty(document, key);
}

if (typeof window !== "undefined") {
  // Wrapped once per worker: every listener added to the window or the document is recorded (in the
  // list of the file that runs).
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
    fromTest = added.length;
    globalsBefore = new Set(Object.getOwnPropertyNames(window));
    htmlAttributes = [...document.documentElement.attributes].map((a) => [a.name, a.value]);
  });
}

// A test that logs console.error fails: React warnings (keys, hydration, act) are bugs here.
beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(" ")}`);
  });
});

afterEach(() => {
  cleanup();
  if (typeof window === "undefined") return;
  toast.remove();
  removeListeners(fromTest);
  for (const name of Object.getOwnPropertyNames(window)) if (!globalsBefore.has(name)) Reflect.deleteProperty(window, name);
  const html = document.documentElement;
  for (const name of html.getAttributeNames()) html.removeAttribute(name);
  for (const [name, value] of htmlAttributes) html.setAttribute(name, value);
  document.head.innerHTML = "";
  document.body.innerHTML = "";
  sessionStorage.clear();
  localStorage.clear();
});

afterAll(async () => {
  if (typeof window === "undefined") return;
  removeListeners(0);
  // The file's timers and requests still pending (a deadline of 10 s, say) end with it.
  await (window as unknown as { happyDOM: { abort(): Promise<void> } }).happyDOM.abort();
});
