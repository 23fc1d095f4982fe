/**
 * Inlined in the page: a Send pressed before React has the booking form keeps the spec's states
 * (decision 019). The page's scripts load when the visitor starts on the form and React then hydrates
 * in slices, with the visitor's input kept from it (guard-input-from-react.ts); a visitor who
 * fills the form with autofill and presses Send at once would otherwise post the form without
 * JavaScript: a reload, a notice instead of the toast, no "Sending...".
 *
 * So until the page is hydrated, this listener takes the form's `submit` (the browser's own checks
 * have passed by then): it stops the post, and, when no required field is blank (the contract's own
 * `isBlank`, serialised beside this function), shows "Sending..." on the disabled button in the same frame, makes the fields read-only, and asks
 * the loader for the scripts at once (HURRY_EVENT). The form's component takes the Send over when it
 * has hydrated (`takeOver`, through use-send-hand-over.ts): it sends with supabase-js and shows the spec's toasts, or the
 * missing-field toast with no call. If the scripts cannot run (SCRIPTS_FAILED_EVENT), or React has not
 * taken it within `deadlineMs`, the form posts without JavaScript, as it always could: never a page
 * that cannot send. Without JavaScript none of this runs and the form posts.
 * A visitor who leaves the page while a Send waits (before anything was sent) gets the form back as it
 * was, enabled, with every value, when they come Back (issue 34): the waiting Send is dropped at
 * `pagehide`, before the browser keeps the page in its back/forward cache, so it can neither freeze
 * there on "Sending..." nor post the page later, from under the page the visitor went to.
 * It must stay self-contained: it is serialised into the page with `Function.prototype.toString`.
 */
import { blankRuleSource, CONTACT_FIELDS, isBlank, REQUIRED_FIELDS } from "#shared/contact-message.ts";
import { contactForm } from "~/content";
import { DRAFT_POSTED_EVENT } from "~/enquiry/form-draft.inline";
import { REACT_HEARS_INPUT_ATTRIBUTES } from "./guard-input-from-react";
import { HURRY_EVENT, INTENT_ATTRIBUTE, SCRIPTS_FAILED_EVENT } from "./inline-script-loader";

export const SEND_BEFORE_HYDRATION_GLOBAL = "__sendBeforeHydration";
/** How long a Send waits for React's form before the form posts without JavaScript. */
export const SEND_DEADLINE_MS = 12_000;

/** What the page's inline code offers the form's component. */
export type SendBeforeHydration = {
  /** A Send is waiting for the form's component, with "Sending..." showing (not one with a blank field). */
  sending(): boolean;
  /**
   * The form's component has hydrated: `send` sends the form as its own submit handler does. A
   * waiting Send is handed over at once (true), and every Send until the page is hydrated goes to it.
   */
  takeOver(send: () => void): boolean;
};

export type SendConfig = {
  global: string;
  formAttribute: string;
  /** Marks on `<html>` that say React receives the visitor's input (the form's own handler sends). */
  reactHearsInput: readonly string[];
  /** The message's fields (made read-only while sending, as the form's component does), and the required ones. */
  fields: readonly string[];
  required: readonly string[];
  sendingText: string;
  hurryEvent: string;
  failedEvent: string;
  /** Dispatched on the form just before this script posts it: the draft kept for Back goes (form-draft.inline.ts). */
  postedEvent: string;
  deadlineMs: number;
};

/** `blank`: the contract's rule; the page passes it (the default is for tests in this bundle, never serialised). */
export function sendBeforeHydration(config: SendConfig, blank: (value: string) => boolean = isBlank) {
  let receiver: (() => void) | undefined;
  let waiting: HTMLFormElement | undefined;
  let scriptsFailed = false;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  // The button's own text, put back when a waiting Send is dropped.
  let buttonText = "";
  // The form as without JavaScript: the browser's own submit, which fires no `submit` event.
  const postWithoutJavaScript = () => {
    const form = waiting;
    waiting = undefined;
    clearTimeout(deadline);
    if (!form) return;
    // `submit()` fires no submit event: the draft is told here, or Back would show the message sent.
    form.dispatchEvent(new Event(config.postedEvent, { bubbles: true }));
    HTMLFormElement.prototype.submit.call(form);
  };
  const api: SendBeforeHydration = {
    sending: () => waiting?.getAttribute("aria-busy") === "true",
    takeOver(send) {
      receiver = send;
      if (!waiting) return false;
      waiting = undefined;
      clearTimeout(deadline);
      send();
      return true;
    },
  };
  (window as unknown as Record<string, SendBeforeHydration>)[config.global] = api;

  addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.hasAttribute(config.formAttribute)) return;
      // React hears input: the form's own handler has it. Scripts that cannot run: the browser posts it.
      if (config.reactHearsInput.some((mark) => document.documentElement.hasAttribute(mark)) || scriptsFailed) return;
      event.preventDefault();
      // React must not hear it before the form's component can send it (it would hydrate at once).
      event.stopPropagation();
      if (waiting) return; // a second press while waiting does nothing
      const value = (name: string) => {
        const field = form.elements.namedItem(name);
        return field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ? field.value : "";
      };
      // Only a message that will be sent shows "Sending..." (a blank field gets its toast, and no call).
      if (config.required.every((name) => !blank(value(name)))) {
        const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
        if (button) {
          buttonText = button.textContent ?? "";
          button.disabled = true;
          button.textContent = config.sendingText;
        }
        form.setAttribute("aria-busy", "true");
        for (const name of config.fields) (form.elements.namedItem(name) as Element | null)?.setAttribute("readonly", "");
      }
      if (receiver) return receiver();
      waiting = form;
      deadline = setTimeout(postWithoutJavaScript, config.deadlineMs);
      dispatchEvent(new Event(config.hurryEvent));
    },
    { capture: true },
  );
  addEventListener(config.failedEvent, () => {
    scriptsFailed = true;
    postWithoutJavaScript();
  });
  // Leaving while a Send waits: nothing has been sent, so the form is the visitor's again.
  addEventListener("pagehide", () => {
    const form = waiting;
    if (!form) return;
    waiting = undefined;
    clearTimeout(deadline);
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    if (button && form.getAttribute("aria-busy") === "true") {
      button.disabled = false;
      button.textContent = buttonText;
    }
    form.removeAttribute("aria-busy");
    for (const name of config.fields) (form.elements.namedItem(name) as Element | null)?.removeAttribute("readonly");
  });
}

/** The inline script's body. */
export function sendBeforeHydrationSource() {
  const config: SendConfig = {
    global: SEND_BEFORE_HYDRATION_GLOBAL,
    formAttribute: INTENT_ATTRIBUTE,
    reactHearsInput: REACT_HEARS_INPUT_ATTRIBUTES,
    fields: CONTACT_FIELDS,
    required: REQUIRED_FIELDS,
    sendingText: contactForm.sending,
    hurryEvent: HURRY_EVENT,
    failedEvent: SCRIPTS_FAILED_EVENT,
    postedEvent: DRAFT_POSTED_EVENT,
    deadlineMs: SEND_DEADLINE_MS,
  };
  return `(${sendBeforeHydration.toString()})(${JSON.stringify(config)}, ${blankCheckSource()});`;
}

/** The contract's `isBlank` as the inline script carries it: the same function, with its patterns written in. */
export function blankCheckSource() {
  return `(value) => (${isBlank.toString()})(value, ${blankRuleSource()})`;
}

/** The page's offer, or undefined where the page did not inline it (component tests, other documents). */
export function sendBeforeHydrationOffer(): SendBeforeHydration | undefined {
  return typeof window === "undefined"
    ? undefined
    : (window as unknown as Record<string, SendBeforeHydration | undefined>)[SEND_BEFORE_HYDRATION_GLOBAL];
}
