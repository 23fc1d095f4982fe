/**
 * Inlined in the home page: the booking form before its island is ready (decision 030). The page is
 * plain HTML; the form works without JavaScript (it posts, Post/Redirect/Get). This one script adds,
 * from the first paint:
 *
 * - intent loads the island: a focus, tap, key, click or input in the form fetches the island's modules
 *   (app/entry.client.tsx), after the frame that answers it;
 * - a Send before the island is ready shows "Sending..." at once and is handed over to the island with
 *   the values it was pressed with (`ready`), or, if the island cannot load, the form posts as without
 *   JavaScript, unless the visitor is leaving the page (a post would replace their navigation);
 * - the draft kept for Back: what was typed is saved in sessionStorage (this tab) and put back when the
 *   visitor returns through history or from the back/forward cache;
 * - the Send's mark that survives leaving (attempt-record.ts): a page that comes back through history with
 *   its last Send unfinished loads the island at once, which finishes it.
 *
 * It reads every control through `form.elements` (input, textarea, select, checkbox, radio), so a new
 * kind of field costs it nothing. It must stay self-contained: it is serialised into the page with
 * `Function.prototype.toString`, and the CSP allows it by its hash.
 */
import { blankRuleSource, isBlank, REQUIRED_FIELDS, FORM_META_FIELDS } from "#shared/contact-message.ts";
import { contactForm } from "~/content";
import { ATTEMPT_STORAGE_KEY, UNFINISHED } from "./attempt-record";

/** The attribute that marks the booking form. */
export const FORM_ATTRIBUTE = "data-contact-form";
/** The global through which the island and the layer meet. */
export const LAYER_GLOBAL = "__contactForm";
/** `<html>` carries it once the island has the form (tests and benchmarks wait for it). */
export const READY_ATTRIBUTE = "data-hydrated";
/** How long a Send waits for the island before the form posts without JavaScript. */
export const SEND_DEADLINE_MS = 12_000;
/** How long a Send whose island could not load waits for the page to be left before it posts. */
export const LEAVING_GRACE_MS = 1_000;

/** What the island gets from the layer when it is ready. */
export type HandOver = {
  /** The values of a Send pressed before the island was ready ("Sending..." shows). */
  waiting?: FormData;
  /** The page came back through history with its last Send unfinished: the island finishes it. */
  resume: boolean;
};

/** What the layer offers the island (window[LAYER_GLOBAL]). */
export type FormLayer = {
  /** Whether a Send waits for the island ("Sending..." shows): the island's first render matches it. */
  sending(): boolean;
  /** The island has the form: it takes what waits, and every Send from now on is its own. */
  ready(): HandOver;
  /** The island's form was sent or emptied: no draft is kept for it. */
  forget(): void;
};

export type LayerConfig = {
  attribute: string;
  global: string;
  readyAttribute: string;
  /** The island's entry module and the modules it imports (preloaded with it). */
  island: { entry: string; imports: readonly string[] };
  events: readonly string[];
  required: readonly string[];
  /** Controls never kept in the draft (the honeypot). */
  skip: readonly string[];
  sendingText: string;
  deadlineMs: number;
  leavingGraceMs: number;
  attempt: { storageKey: string; unfinished: readonly string[] };
};

export function formLayer(config: LayerConfig, blank: (value: string) => boolean = isBlank) {
  const form = () => document.querySelector<HTMLFormElement>(`form[${config.attribute}]`);
  const draftKey = `${config.attribute}:${location.pathname}`;
  let island: "idle" | "loading" | "ready" | "failed" = "idle";
  let waiting: FormData | undefined;
  let buttonText = "";
  let deadline: ReturnType<typeof setTimeout> | undefined;
  let resume = false;
  // The browser posts the form: no draft is kept, and nothing saves one as the page is left.
  let posted = false;
  let left = false;

  const controls = (target: HTMLFormElement) =>
    [...target.elements].filter(
      (c): c is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement =>
        "name" in c && !!(c as HTMLInputElement).name && !config.skip.includes((c as HTMLInputElement).name) && c.tagName !== "BUTTON",
    );
  const isToggle = (c: Element): c is HTMLInputElement => c instanceof HTMLInputElement && (c.type === "checkbox" || c.type === "radio");
  const button = (target: HTMLFormElement) => target.querySelector<HTMLButtonElement>("button[type=submit]");

  // The island's modules: preloaded together (no waterfall), then the entry runs.
  const load = () => {
    if (island !== "idle") return;
    island = "loading";
    for (const href of [config.island.entry, ...config.island.imports]) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.append(link);
    }
    import(config.island.entry).catch(() => {
      island = "failed";
      if (waiting) postUnlessLeaving();
    });
  };
  const intent = (event: Event) => {
    if (!(event.target instanceof Element) || !event.target.closest(`form[${config.attribute}]`)) return;
    for (const type of config.events) removeEventListener(type, intent, true);
    // After the frame that answers the tap or key: nothing more happens inside it.
    requestAnimationFrame(() => setTimeout(load, 0));
  };
  const listen = () => {
    for (const type of config.events) addEventListener(type, intent, { capture: true, passive: true });
  };
  listen();

  const showSending = (target: HTMLFormElement, on: boolean) => {
    const send = button(target);
    if (send) {
      if (on) buttonText = send.textContent ?? "";
      send.disabled = on;
      send.textContent = on ? config.sendingText : buttonText;
    }
    if (on) target.setAttribute("aria-busy", "true");
    else target.removeAttribute("aria-busy");
    // What is being sent stays as it is shown, as the island does (a choice or a box has no read-only state).
    for (const c of controls(target)) if (!(c instanceof HTMLSelectElement) && !isToggle(c)) c.readOnly = on;
  };
  // The island cannot load: the form posts as it does without JavaScript, unless the visitor is leaving
  // the page (an engine cancels downloads as a navigation begins, before any event says so).
  const postUnlessLeaving = () =>
    setTimeout(() => {
      const target = form();
      if (!waiting || left || !target) return;
      waiting = undefined;
      clearTimeout(deadline);
      drop();
      HTMLFormElement.prototype.submit.call(target);
    }, config.leavingGraceMs);

  addEventListener(
    "submit",
    (event) => {
      const target = event.target;
      if (!(target instanceof HTMLFormElement) || !target.hasAttribute(config.attribute)) return;
      if (island === "ready") return; // the island's own handler sends it
      if (island === "failed" && !waiting) return drop(); // the browser posts it
      event.preventDefault();
      event.stopPropagation();
      if (waiting) return; // a second press while one waits does nothing
      waiting = new FormData(target);
      // Only a message that will be sent shows "Sending..." (a blank field gets its toast from the island).
      if (config.required.every((name) => !blank(String(waiting?.get(name) ?? "")))) showSending(target, true);
      clearTimeout(deadline);
      deadline = setTimeout(() => {
        if (island !== "ready") {
          island = "failed";
          postUnlessLeaving();
        }
      }, config.deadlineMs);
      load();
    },
    { capture: true },
  );

  const layer: FormLayer = {
    sending: () => !!waiting && form()?.getAttribute("aria-busy") === "true",
    ready() {
      island = "ready";
      clearTimeout(deadline);
      document.documentElement.setAttribute(config.readyAttribute, "");
      const handed: HandOver = { waiting, resume };
      waiting = undefined;
      resume = false;
      return handed;
    },
    forget: () => drop(),
  };
  (window as unknown as Record<string, FormLayer>)[config.global] = layer;

  // The draft kept for Back: a text's value, a choice's value, a box's state where it is not its default.
  let saved: Record<string, string | boolean> = {};
  const idOf = (c: Element & { name: string; value: string }) => (isToggle(c) ? `${c.name}=${c.value}` : c.name);
  /** A control as the page started it: what the browser restored itself is the same, or newer. */
  const pristine = (c: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, all: readonly Element[]) => {
    if (c instanceof HTMLSelectElement) {
      const start = Math.max(
        0,
        [...c.options].findIndex((o) => o.defaultSelected),
      );
      // (No option selected at all, -1, is as it started too.)
      return c.multiple ? [...c.options].every((o) => o.selected === o.defaultSelected) : c.selectedIndex <= start;
    }
    // A radio is as it started only if its whole group is.
    if (isToggle(c) && c.type === "radio")
      return all.every((o) => !isToggle(o) || o.type !== "radio" || o.name !== c.name || o.checked === o.defaultChecked);
    return isToggle(c) ? c.checked === c.defaultChecked : c.value === "";
  };
  const save = (leaving = false) => {
    const target = form();
    if (posted || !target) return;
    const draft: Record<string, string | boolean> = {};
    for (const c of controls(target)) {
      const id = idOf(c);
      // As the page is left, an engine may already have emptied a field it does not keep (WebKit,
      // autocomplete="off"): the field keeps what was saved for it.
      if (isToggle(c)) {
        if (c.checked !== c.defaultChecked) draft[id] = c.checked;
      } else {
        const value = c.value || (leaving ? saved[id] : "");
        if (value) draft[id] = value;
      }
    }
    saved = draft;
    try {
      if (Object.keys(draft).length) sessionStorage.setItem(draftKey, JSON.stringify(draft));
      else sessionStorage.removeItem(draftKey);
    } catch {
      // Storage blocked or full: the browser's own restore is all there is.
    }
  };
  const restore = () => {
    const target = form();
    let draft: Record<string, unknown> | null = null;
    try {
      draft = JSON.parse(sessionStorage.getItem(draftKey) ?? "null");
    } catch {
      return;
    }
    if (!draft || !target) return;
    // Only into controls as they started: what the browser restored itself is the same, or newer.
    const all = controls(target);
    const untouched = all.filter((c) => pristine(c, all));
    for (const c of untouched) {
      const value = draft[idOf(c)];
      if (isToggle(c) && typeof value === "boolean") c.checked = value;
      else if (!isToggle(c) && typeof value === "string") c.value = value;
    }
  };
  function drop() {
    posted = true;
    saved = {};
    try {
      sessionStorage.removeItem(draftKey);
    } catch {
      // Storage blocked: nothing was kept.
    }
  }
  // A Send left unfinished (attempt-record.ts): the island finishes it, so it loads at once.
  const unfinished = () => {
    try {
      const state = (JSON.parse(sessionStorage.getItem(config.attempt.storageKey) ?? "null") as { state?: string } | null)?.state;
      return !!state && config.attempt.unfinished.includes(state);
    } catch {
      return false;
    }
  };
  const arrival = performance.getEntriesByType?.("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (arrival && (arrival.type === "back_forward" || arrival.type === "reload")) {
    restore();
    if (unfinished() && form()) {
      resume = true;
      load();
    }
  }
  for (const type of ["input", "change", "reset"]) {
    addEventListener(type, (event) => event.target instanceof Element && event.target.closest(`form[${config.attribute}]`) && save(), true);
  }
  addEventListener("pagehide", () => {
    left = true;
    save(true);
    // Leaving while a Send waits for the island: nothing has been sent, so the form is the visitor's again.
    const target = form();
    if (waiting && target) {
      waiting = undefined;
      clearTimeout(deadline);
      if (target.getAttribute("aria-busy") === "true") showSending(target, false);
    }
  });
  // A phone may discard a hidden tab without a pagehide.
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && save(true));
  addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    left = false;
    posted = false;
    // A download cut off by leaving may never settle now: the next intent asks again.
    if (island !== "ready") {
      island = "idle";
      listen();
    }
    // WebKit empties autocomplete="off" fields as it resumes, which may come after pageshow.
    restore();
    setTimeout(restore, 0);
    requestAnimationFrame(() => setTimeout(restore, 0));
  });
}

/** The inline script's body. */
export function formLayerSource(island: LayerConfig["island"]) {
  const config: LayerConfig = {
    attribute: FORM_ATTRIBUTE,
    global: LAYER_GLOBAL,
    readyAttribute: READY_ATTRIBUTE,
    island,
    // `click` and `input` too: a screen reader activating a control sends a click without any pointer
    // or key event, and autofill or dictation fill a field without keys.
    events: ["focusin", "pointerdown", "touchstart", "keydown", "click", "input"],
    required: REQUIRED_FIELDS,
    skip: [FORM_META_FIELDS.trap],
    sendingText: contactForm.sending,
    deadlineMs: SEND_DEADLINE_MS,
    leavingGraceMs: LEAVING_GRACE_MS,
    attempt: { storageKey: ATTEMPT_STORAGE_KEY, unfinished: UNFINISHED },
  };
  return `(${formLayer.toString()})(${JSON.stringify(config)}, (value) => (${isBlank.toString()})(value, ${blankRuleSource()}));`;
}

/** The page's layer, or undefined where the page did not inline it (component tests). */
export function formLayerOffer(): FormLayer | undefined {
  return typeof window === "undefined" ? undefined : (window as unknown as Record<string, FormLayer | undefined>)[LAYER_GLOBAL];
}
