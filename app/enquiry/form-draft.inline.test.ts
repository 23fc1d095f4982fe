import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HURRY_EVENT } from "~/hydration/inline-script-loader";
import { ATTEMPT_STORAGE_KEY, RESUME_GLOBAL, UNFINISHED } from "./attempt-record";
import { DRAFT_ATTRIBUTE, DRAFT_POSTED_EVENT, keepFormDraft } from "./form-draft.inline";

const FIELDS = ["name", "projectTitle", "projectDetails"];
const cleanups: (() => void)[] = [];
const value = (name: string) => document.querySelector<HTMLInputElement>(`[name=${name}]`)!.value;
const type = (name: string, text: string) => (document.querySelector<HTMLInputElement>(`[name=${name}]`)!.value = text);

/** One page load; `restored` stands for what the browser put back into the fields itself. */
function page(arrival?: "navigate" | "back_forward" | "reload", restored: Record<string, string> = {}) {
  document.body.innerHTML =
    `<form ${DRAFT_ATTRIBUTE}=""><input name="name"><input name="projectTitle" autocomplete="off">` +
    `<textarea name="projectDetails"></textarea><input name="website"></form>`;
  for (const [name, text] of Object.entries(restored)) type(name, text);
  vi.spyOn(performance, "getEntriesByType").mockReturnValue(arrival ? [{ type: arrival } as unknown as PerformanceEntry] : []);
  // Each call stands for one page load; its listeners stay on window, as in the browser.
  const controller = new AbortController();
  const add = window.addEventListener.bind(window);
  vi.spyOn(window, "addEventListener").mockImplementation((type, listener, options) =>
    add(type, listener, { ...(typeof options === "object" ? options : {}), signal: controller.signal }),
  );
  keepFormDraft({
    attribute: DRAFT_ATTRIBUTE,
    fields: FIELDS,
    postedEvent: DRAFT_POSTED_EVENT,
    attempt: { storageKey: ATTEMPT_STORAGE_KEY, unfinished: UNFINISHED, resumeGlobal: RESUME_GLOBAL },
    hurryEvent: HURRY_EVENT,
  });
  vi.mocked(window.addEventListener).mockRestore();
  cleanups.push(() => controller.abort());
}
// happy-dom's PageTransitionEvent is a plain Event: `persisted` is set by hand.
const pageTransition = (type: string, persisted: boolean) => Object.defineProperty(new Event(type), "persisted", { value: persisted });
const leave = () => dispatchEvent(pageTransition("pagehide", false));

describe("the booking form's draft", () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  it("is saved when the page is left and put back when the visitor comes Back to a new copy of it", () => {
    page("navigate");
    type("name", "Grace");
    type("projectTitle", "Compiler Blues");
    type("projectDetails", "Five songs");
    type("website", "bot");
    leave();
    cleanups.splice(0).forEach((cleanup) => cleanup());

    page("back_forward");
    expect([value("name"), value("projectTitle"), value("projectDetails"), value("website")]).toEqual([
      "Grace",
      "Compiler Blues",
      "Five songs",
      "",
    ]);
  });

  for (const [how, post] of [
    [
      "its own submit, no script taking it over",
      (form: HTMLFormElement) => form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true })),
    ],
    [
      "form.submit() by the page (the enquiry client could not load)",
      (form: HTMLFormElement) => form.dispatchEvent(new Event(DRAFT_POSTED_EVENT, { bubbles: true })),
    ],
  ] as const) {
    it(`is dropped when the browser posts the form (${how}): Back from the server's answer shows no sent message`, () => {
      page("navigate");
      type("name", "Grace");
      type("projectTitle", "Compiler Blues");
      document.querySelector("form")!.dispatchEvent(new Event("input", { bubbles: true }));
      post(document.querySelector("form")!);
      leave();
      cleanups.splice(0).forEach((cleanup) => cleanup());
      page("back_forward");
      expect([value("name"), value("projectTitle")]).toEqual(["", ""]);
    });
  }

  it("is kept when a script takes the submit over (the page sends it and stays)", () => {
    page("navigate");
    type("projectTitle", "Compiler Blues");
    const form = document.querySelector("form")!;
    form.addEventListener("submit", (event) => event.preventDefault());
    form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    leave();
    cleanups.splice(0).forEach((cleanup) => cleanup());
    page("back_forward");
    expect(value("projectTitle")).toBe("Compiler Blues");
  });

  it("fills only empty fields: what the browser restored itself stays", () => {
    page("navigate");
    type("name", "Grace");
    type("projectTitle", "Old title");
    leave();
    cleanups.splice(0).forEach((cleanup) => cleanup());
    page("back_forward", { projectTitle: "Newer title" });
    expect([value("name"), value("projectTitle")]).toEqual(["Grace", "Newer title"]);
  });

  it("refills fields the browser cleared when the page comes back from the back/forward cache (WebKit, autocomplete=off)", () => {
    page("navigate");
    type("name", "Grace");
    type("projectTitle", "Compiler Blues");
    leave();
    type("projectTitle", "");
    dispatchEvent(pageTransition("pageshow", true));
    expect([value("name"), value("projectTitle")]).toEqual(["Grace", "Compiler Blues"]);
  });

  it("keeps a typed field the browser empties as the page is left (WebKit, autocomplete=off, before hydration)", () => {
    page("navigate");
    type("name", "Grace");
    type("projectTitle", "Compiler Blues");
    document.querySelector("[name=projectTitle]")!.dispatchEvent(new Event("input", { bubbles: true }));
    type("projectTitle", ""); // emptied by the browser: no input event
    leave();
    type("projectTitle", "");
    dispatchEvent(pageTransition("pageshow", true));
    expect([value("name"), value("projectTitle")]).toEqual(["Grace", "Compiler Blues"]);
  });

  it("refills a field the browser empties as it finishes resuming the page, after pageshow", async () => {
    page("navigate");
    type("projectTitle", "Compiler Blues");
    leave();
    dispatchEvent(pageTransition("pageshow", true));
    type("projectTitle", ""); // WebKit's reset of an autocomplete=off field as the page resumes
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 10)));
    expect(value("projectTitle")).toBe("Compiler Blues");
  });

  it("starts empty on an arrival by link or address, and a sent (emptied) form leaves no draft", () => {
    page("navigate");
    type("name", "Grace");
    leave();
    cleanups.splice(0).forEach((cleanup) => cleanup());
    page("navigate");
    expect(value("name")).toBe("");
    leave();
    expect(sessionStorage.length).toBe(0);
  });

  it("is saved as the visitor types, so a page left without a pagehide keeps it; a reset (sent) form removes it", () => {
    page("navigate");
    type("projectTitle", "Compiler Blues");
    document.querySelector("[name=projectTitle]")!.dispatchEvent(new Event("input", { bubbles: true }));
    expect(JSON.parse(sessionStorage.getItem(`${DRAFT_ATTRIBUTE}:/`)!)).toEqual({ projectTitle: "Compiler Blues" });
    type("projectTitle", "");
    document.querySelector("form")!.dispatchEvent(new Event("reset", { bubbles: true }));
    expect(sessionStorage.length).toBe(0);
  });

  it("lives without storage: nothing is saved, nothing throws", () => {
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("blocked", "SecurityError");
    });
    page("navigate");
    type("name", "Grace");
    expect(leave).not.toThrow();
  });

  describe("a page that comes back through history with its last Send unfinished", () => {
    const hurried = vi.fn();
    const forget = () => Reflect.deleteProperty(window, RESUME_GLOBAL);
    beforeEach(() => addEventListener(HURRY_EVENT, hurried));
    afterEach(() => (removeEventListener(HURRY_EVENT, hurried), hurried.mockClear(), forget()));
    const lastSend = (state: string) => sessionStorage.setItem(ATTEMPT_STORAGE_KEY, JSON.stringify({ key: "k", values: "{}", state }));
    const marked = () => RESUME_GLOBAL in window;

    for (const state of ["sending", "sent"])
      for (const arrival of ["back_forward", "reload"] as const)
        it(`marks the form and asks for the scripts at once (${state}, ${arrival})`, () => {
          lastSend(state);
          page(arrival);
          expect([marked(), hurried.mock.calls.length]).toEqual([true, 1]);
        });

    it("does nothing for a Send answered otherwise, none at all, a record it cannot read, or an arrival by link", () => {
      for (const [record, arrival] of [
        ["settled", "back_forward"],
        [undefined, "back_forward"],
        ["{", "reload"],
        ["sending", "navigate"],
      ] as const) {
        sessionStorage.clear();
        if (record === "{") sessionStorage.setItem(ATTEMPT_STORAGE_KEY, "{");
        else if (record) lastSend(record);
        page(arrival);
        expect([marked(), hurried.mock.calls.length], `${record} ${arrival}`).toEqual([false, 0]);
        forget();
        cleanups.splice(0).forEach((cleanup) => cleanup());
      }
    });
  });
});
