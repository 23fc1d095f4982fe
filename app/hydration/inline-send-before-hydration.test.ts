import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CONTACT_FIELDS, isBlank, REQUIRED_FIELDS } from "#shared/contact-message.ts";
import { contactForm } from "~/content";
import { blankCheckSource, sendBeforeHydration, type SendBeforeHydration, type SendConfig } from "./inline-send-before-hydration";

let page = 0;

/** A page with the booking form and the inline listener, under names of its own. */
function open({ deadlineMs = 10_000 } = {}) {
  const n = page++;
  const config: SendConfig = {
    global: `__send${n}`,
    formAttribute: `data-form-${n}`,
    reactHearsInput: [`data-hydrated-${n}`, `data-guard-expired-${n}`],
    fields: CONTACT_FIELDS,
    required: REQUIRED_FIELDS,
    sendingText: contactForm.sending,
    hurryEvent: `hurry-${n}`,
    failedEvent: `failed-${n}`,
    postedEvent: `posted-${n}`,
    deadlineMs,
  };
  document.body.innerHTML =
    `<form ${config.formAttribute} method="post"><input name="name" value="Ada"><input name="email" value="ada@example.com">` +
    `<input name="projectTitle" value="Debut EP"><textarea name="projectDetails"></textarea>` +
    `<button type="submit">${contactForm.submit}</button></form>`;
  sendBeforeHydration(config);
  const form = document.querySelector("form")!;
  const button = form.querySelector("button")!;
  const hurried = vi.fn();
  window.addEventListener(config.hurryEvent, hurried);
  const offer = (window as unknown as Record<string, SendBeforeHydration>)[config.global]!;
  const press = () => {
    const event = new Event("submit", { bubbles: true, cancelable: true });
    form.dispatchEvent(event);
    return event;
  };
  const nativePosts = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => {});
  return { config, form, button, offer, press, hurried, nativePosts };
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("Send pressed before the page has hydrated", () => {
  it("keeps the page (no post), shows Sending... on the disabled button at once, and asks for the scripts", () => {
    const { form, button, offer, press, hurried, nativePosts } = open();
    expect(press().defaultPrevented).toBe(true);
    expect(button.textContent).toBe(contactForm.sending);
    expect(button.disabled).toBe(true);
    expect(form.getAttribute("aria-busy")).toBe("true");
    expect([...form.querySelectorAll("input, textarea")].every((f) => f.hasAttribute("readonly"))).toBe(true);
    expect(hurried).toHaveBeenCalledTimes(1);
    expect(offer.sending()).toBe(true);
    expect(nativePosts).not.toHaveBeenCalled();
  });

  it("hands the waiting Send to the form's component once it has hydrated, and every later one until the page has", () => {
    const { offer, press } = open();
    press();
    press(); // pressed again while waiting: nothing more
    const send = vi.fn();
    offer.takeOver(send);
    expect(send).toHaveBeenCalledTimes(1);
    expect(offer.sending()).toBe(false);
    expect(press().defaultPrevented).toBe(true);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it.each([
    ["only spaces", "   "],
    ["only invisible characters (blank to the contract's isBlank)", "\u200B\u0301"],
  ])("a required field holding %s: no Sending..., and the component gets it (its toast, no call)", (_, value) => {
    const { form, button, offer, press } = open();
    (form.elements.namedItem("name") as HTMLInputElement).value = value;
    expect(press().defaultPrevented).toBe(true);
    expect(button.textContent).toBe(contactForm.submit);
    expect(button.disabled).toBe(false);
    expect(offer.sending()).toBe(false);
    const send = vi.fn();
    offer.takeOver(send);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("once the page has hydrated, or the input guard's deadline has passed, leaves Send to the form's own handler", () => {
    for (const mark of [0, 1]) {
      const { config, button, press } = open();
      document.documentElement.setAttribute(config.reactHearsInput[mark]!, "");
      expect(press().defaultPrevented).toBe(false);
      expect(button.textContent).toBe(contactForm.submit);
      document.documentElement.removeAttribute(config.reactHearsInput[mark]!);
    }
  });

  it("posts the form without JavaScript when the scripts cannot run, telling the draft first, and lets later presses post", () => {
    const { config, form, press, nativePosts } = open();
    const told = vi.fn(() => expect(nativePosts).not.toHaveBeenCalled());
    form.addEventListener(config.postedEvent, told);
    press();
    window.dispatchEvent(new Event(config.failedEvent));
    // The page posts it with submit(), which fires no submit event: the draft kept for Back hears this instead.
    expect(told).toHaveBeenCalledTimes(1);
    expect(nativePosts).toHaveBeenCalledTimes(1);
    expect(nativePosts.mock.contexts[0]).toBe(form);
    expect(press().defaultPrevented).toBe(false);
  });

  it("leaving the page while a Send waits drops it: on Back the form is as it was, enabled, and nothing posts later", async () => {
    const { form, button, offer, press, nativePosts } = open({ deadlineMs: 20 });
    press();
    window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: true }));
    expect(button.textContent).toBe(contactForm.submit);
    expect(button.disabled).toBe(false);
    expect(form.hasAttribute("aria-busy")).toBe(false);
    expect([...form.querySelectorAll("input, textarea")].some((f) => f.hasAttribute("readonly"))).toBe(false);
    expect((form.elements.namedItem("projectTitle") as HTMLInputElement).value).toBe("Debut EP");
    expect(offer.sending()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(nativePosts, "the page posted itself after the visitor left").not.toHaveBeenCalled();
    const send = vi.fn();
    offer.takeOver(send);
    expect(send, "the dropped Send handed over").not.toHaveBeenCalled();
  });

  it("posts the form without JavaScript when React has not taken it within the deadline", async () => {
    const { offer, press, nativePosts } = open({ deadlineMs: 20 });
    press();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(nativePosts).toHaveBeenCalledTimes(1);
    const send = vi.fn();
    offer.takeOver(send);
    expect(send).not.toHaveBeenCalled();
  });
});

describe("the blank check the page carries", () => {
  it("is the contract's isBlank, as serialised into the inline script", () => {
    const blank = new Function(`return ${blankCheckSource()}`)() as (value: string) => boolean;
    const invisible = fc.constantFrom(" ", "\t", "\n", "\u00A0", "\u200B", "\u0301", "\u2028", "\u3164", "\uFEFF", "\u{E0041}");
    const text = fc.oneof(
      fc.string(),
      fc.array(invisible).map((cs) => cs.join("")),
      fc.tuple(fc.array(invisible), fc.string({ maxLength: 1 })).map(([cs, c]) => cs.join("") + c),
    );
    fc.assert(fc.property(text, (value) => blank(value) === isBlank(value)));
    expect(blank("\u200B\u0301")).toBe(true);
    expect(blank(" a ")).toBe(false);
  });
});
