/**
 * What a visitor typed into the booking form is there again when they come Back to the page, on every
 * engine, before and after hydration. Browsers restore form fields themselves only in part:
 * - a page that comes back without the back/forward cache (Chromium in tests, a page the browser
 *   evicted) gets back only the fields whose value differs from their default, and hydration makes
 *   the typed text the default (React sets `defaultValue`), so name and e-mail come back empty;
 * - fields with `autocomplete="off"` (the message: Project Title and Details) are never restored, and WebKit clears them even
 *   when the page comes back from the back/forward cache.
 * So the form keeps its own draft: saved in sessionStorage (this tab only, gone when it closes) as the
 * visitor types and when the page is left or hidden, put back into empty fields when the visitor
 * returns through history (Back, Forward, reload) or from the back/forward cache; an arrival by link
 * or address starts empty, as the browser's own restore does. A sent form is emptied (with an input
 * event), which removes the draft; a form the browser posts itself leaves none.
 * A page that comes back through history with its last Send unfinished (attempt-record.ts: on its way
 * when the page was left, or a success not yet seen) says so (RESUME_GLOBAL) and asks for the page's scripts at
 * once: the form's component then finishes it (ContactForm.tsx), so the page says what became of it.
 * Inlined at the end of the body of a page whose form asks for it (app/document/form-draft.server.ts),
 * so it runs once the fields are parsed, at the first paint; it must stay self-contained (it is
 * serialised with `Function.prototype.toString`) and is allowed by its hash like every inline script.
 * Without JavaScript the browser's own restore is all.
 */
import { HURRY_EVENT } from "~/hydration/inline-script-loader";
import { ATTEMPT_STORAGE_KEY, RESUME_GLOBAL, UNFINISHED } from "./attempt-record";

export const DRAFT_ATTRIBUTE = "data-keeps-draft";
/**
 * Dispatched on the form just before the page posts it by `form.submit()` (which fires no submit
 * event): the post's answer is the page that says what became of the message, so no draft is kept.
 */
export const DRAFT_POSTED_EVENT = "form-draft-posted";

export type DraftConfig = {
  attribute: string;
  fields: readonly string[];
  postedEvent: string;
  /** The last Send's record (attempt-record.ts): its storage key, its unfinished states, the form's mark. */
  attempt: { storageKey: string; unfinished: readonly string[]; resumeGlobal: string };
  /** Asks the page's loader for its scripts now (inline-script-loader.ts). */
  hurryEvent: string;
};

export function keepFormDraft({ attribute, fields, postedEvent, attempt, hurryEvent }: DraftConfig) {
  const key = `${attribute}:${location.pathname}`;
  // The browser posts the form itself (its own submit, or `form.submit()`): the draft goes, and nothing
  // saves it again as the page is left for the server's answer; Back then shows the form without the
  // message sent, as without JavaScript (decision 027). Until the page is shown again from the cache.
  let posted = false;
  const controls = () => {
    const form = document.querySelector(`form[${attribute}]`);
    const found: (HTMLInputElement | HTMLTextAreaElement)[] = [];
    for (const name of fields) {
      const control = form instanceof HTMLFormElement ? form.elements.namedItem(name) : null;
      if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) found.push(control);
    }
    return found;
  };
  // What was saved last: a field emptied by the visitor was saved without it (an input event).
  let saved: Record<string, string> = {};
  // As the page is left, the browser may already have emptied fields it does not keep (WebKit,
  // `autocomplete="off"`): an empty field then keeps what was saved for it.
  const save = (leaving = false) => {
    if (posted) return;
    const draft: Record<string, string> = {};
    for (const control of controls()) {
      const value = control.value || (leaving ? saved[control.name] : "");
      if (value) draft[control.name] = value;
    }
    saved = draft;
    try {
      if (Object.keys(draft).length) sessionStorage.setItem(key, JSON.stringify(draft));
      else sessionStorage.removeItem(key);
    } catch {
      // Storage blocked or full: the browser's own restore is all there is.
    }
  };
  const restore = () => {
    let draft: Record<string, unknown> | null = null;
    try {
      draft = JSON.parse(sessionStorage.getItem(key) ?? "null");
    } catch {
      return;
    }
    if (!draft) return;
    // Only into empty fields: what the browser restored itself is the same text, or newer.
    for (const control of controls()) {
      const value = draft[control.name];
      if (typeof value === "string" && control.value === "") control.value = value;
    }
  };
  // A Send left unfinished: the form's component finishes it once the scripts it asks for have run.
  const resume = () => {
    let state: unknown;
    try {
      state = (JSON.parse(sessionStorage.getItem(attempt.storageKey) ?? "null") as { state?: unknown } | null)?.state;
    } catch {
      return;
    }
    if (!document.querySelector(`form[${attribute}]`) || !attempt.unfinished.includes(state as string)) return;
    (window as unknown as Record<string, boolean>)[attempt.resumeGlobal] = true;
    dispatchEvent(new Event(hurryEvent));
  };
  const arrival = performance.getEntriesByType?.("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (arrival && (arrival.type === "back_forward" || arrival.type === "reload")) {
    restore();
    resume();
  }
  // From the back/forward cache: now, and again once the browser has finished resuming the page (WebKit
  // empties `autocomplete="off"` fields as it resumes, which may come after pageshow).
  addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    posted = false;
    restore();
    setTimeout(restore, 0);
    requestAnimationFrame(() => setTimeout(restore, 0));
  });
  // As typed, or emptied once sent (a page can be left without a pagehide the draft could count on:
  // a discarded tab, a crash).
  for (const type of ["input", "reset"]) {
    addEventListener(type, (event) => event.target instanceof Element && event.target.closest(`form[${attribute}]`) && save(), true);
  }
  const drop = () => {
    posted = true;
    saved = {};
    try {
      sessionStorage.removeItem(key);
    } catch {
      // Storage blocked: nothing was kept.
    }
  };
  // A submit that no script took over (bubbling to the window, after React's handler) is the browser's post.
  addEventListener("submit", (event) => {
    if (!event.defaultPrevented && event.target instanceof Element && event.target.matches(`form[${attribute}]`)) drop();
  });
  addEventListener(postedEvent, (event) => event.target instanceof Element && event.target.matches(`form[${attribute}]`) && drop(), true);
  addEventListener("pagehide", () => save(true));
  // A phone may discard a hidden tab without a pagehide.
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && save(true));
}

/** The inline script's body. */
export function keepFormDraftSource(fields: readonly string[]) {
  const config: DraftConfig = {
    attribute: DRAFT_ATTRIBUTE,
    fields,
    postedEvent: DRAFT_POSTED_EVENT,
    attempt: { storageKey: ATTEMPT_STORAGE_KEY, unfinished: UNFINISHED, resumeGlobal: RESUME_GLOBAL },
    hurryEvent: HURRY_EVENT,
  };
  return `(${keepFormDraft.toString()})(${JSON.stringify(config)});`;
}
