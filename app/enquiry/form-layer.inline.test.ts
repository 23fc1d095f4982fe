import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CONTACT_FIELDS, FIELD_SPECS, FORM_META_FIELDS, isBlank, REQUIRED_FIELDS } from "#shared/contact-message.ts";
import { contactForm } from "~/content";
import { ATTEMPT_STORAGE_KEY, UNFINISHED } from "./attempt-record";
import { formLayer, formLayerSource, LAYER_GLOBAL, type FormLayer, type LayerConfig } from "./form-layer.inline";

/**
 * The config and blank check exactly as the page's script carries them: formLayerSource's output, run
 * with the layer itself replaced by a function that hands them back.
 */
function pageConfig(island: LayerConfig["island"]) {
  const source = formLayerSource(island);
  let taken: [LayerConfig, (value: string) => boolean] | undefined;
  new Function("take", source.replace(formLayer.toString(), "take"))((...args: typeof taken & unknown[]) => (taken = args));
  return taken!;
}

let pages = 0;
/**
 * An island entry that runs (and counts its runs), one that cannot load, and one that never settles. No `?` or
 * `#` in them (a URL's query and fragment), and a comment at the end for the query Vitest's import() adds.
 */
const island = {
  runs: (n: number) => (globalThis as Record<string, unknown>)[`__islandRuns${n}`] ?? 0,
  running: (n: number) => `data:text/javascript,globalThis.__islandRuns${n}=(globalThis.__islandRuns${n}||0)+1;//`,
  failing: (n: number) => `data:text/javascript,throw new Error("island ${n} cannot load");//`,
  hanging: (n: number) => `data:text/javascript,await new Promise(()=>{});//${n}`,
};
const cleanups: (() => void)[] = [];
const unload = () => cleanups.splice(0).forEach((cleanup) => cleanup());
afterEach(() => {
  unload();
  for (const key of Object.keys(globalThis)) if (key.startsWith("__islandRuns")) Reflect.deleteProperty(globalThis, key);
});

/** The booking form as the contract describes it: every field, the honeypot, Send. */
const contractForm = (attribute: string) =>
  `<form ${attribute}="" method="post">` +
  CONTACT_FIELDS.map((name) =>
    FIELD_SPECS[name].lines === "many"
      ? `<textarea name="${name}"></textarea>`
      : `<input name="${name}" type="${FIELD_SPECS[name].inputType}">`,
  ).join("") +
  `<input name="${FORM_META_FIELDS.trap}"><button type="submit">${contactForm.submit}</button></form>`;

type Arrival = "navigate" | "back_forward" | "reload";
/**
 * One page load: the form's HTML, what the browser restored into it itself (`before`), then the
 * layer as the page runs it. Its listeners go with the next page load (`unload`).
 */
function open({
  arrival = "navigate",
  html,
  before,
  entry = "running",
  deadlineMs,
  leavingGraceMs,
}: {
  arrival?: Arrival;
  html?: (attribute: string) => string;
  before?: (form: HTMLFormElement) => void;
  entry?: keyof Omit<typeof island, "runs">;
  deadlineMs?: number;
  leavingGraceMs?: number;
} = {}) {
  unload();
  const n = pages++;
  const imports = [`data:text/javascript,export{};//import-a-${n}`, `data:text/javascript,export{};//import-b-${n}`];
  const [pageConfigOf, blank] = pageConfig({ entry: island[entry](n), imports });
  const config = {
    ...pageConfigOf,
    deadlineMs: deadlineMs ?? pageConfigOf.deadlineMs,
    leavingGraceMs: leavingGraceMs ?? pageConfigOf.leavingGraceMs,
  };
  document.head.innerHTML = "";
  document.body.innerHTML = (html ?? contractForm)(config.attribute) + `<button id="outside">Elsewhere</button>`;
  const form = document.querySelector("form")!;
  before?.(form);
  vi.spyOn(performance, "getEntriesByType").mockReturnValue([{ type: arrival } as unknown as PerformanceEntry]);
  const controller = new AbortController();
  for (const target of [window, document]) {
    const add = target.addEventListener.bind(target);
    vi.spyOn(target, "addEventListener").mockImplementation((type, listener, options) =>
      add(type, listener, { ...(typeof options === "object" ? options : { capture: !!options }), signal: controller.signal }),
    );
  }
  formLayer(config, blank);
  vi.mocked(window.addEventListener).mockRestore();
  vi.mocked(document.addEventListener).mockRestore();
  vi.mocked(performance.getEntriesByType).mockRestore();
  // A page load ends with its pagehide (a Send still waiting goes with it), then its listeners.
  cleanups.push(() => (leave(), controller.abort()));
  const layer = (window as unknown as Record<string, FormLayer>)[config.global]!;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const press = () => {
    const event = new Event("submit", { bubbles: true, cancelable: true });
    form.dispatchEvent(event);
    return event;
  };
  const preloaded = () =>
    [...document.head.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload]")].map((l) => l.getAttribute("href"));
  const draft = () =>
    JSON.parse(sessionStorage.getItem(`${config.attribute}:${location.pathname}`) ?? "null") as Record<string, unknown> | null;
  return { n, config, form, button, layer, press, preloaded, draft, entry: island[entry](n), imports };
}

const control = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement;
const fillContract = (form: HTMLFormElement, values: Record<string, string>) => {
  for (const [name, value] of Object.entries(values)) control(form, name).value = value;
};
const typed = (form: HTMLFormElement) => form.dispatchEvent(new Event("input", { bubbles: true }));
// happy-dom's PageTransitionEvent is a plain Event: `persisted` is set by hand.
const pageTransition = (type: string, persisted: boolean) => Object.defineProperty(new Event(type), "persisted", { value: persisted });
const leave = (persisted = false) => dispatchEvent(pageTransition("pagehide", persisted));
const afterAFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 10)));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const complete = () => Object.fromEntries(REQUIRED_FIELDS.map((name) => [name, name === "email" ? "ada@example.com" : `Ada's ${name}`]));

describe("the island loads on intent", () => {
  it("on the first intent inside the form, after the frame that answers it: its entry and imports preloaded together, the entry run once", async () => {
    for (const type of pageConfig({ entry: "", imports: [] })[0].events) {
      const { n, form, preloaded, entry, imports } = open();
      control(form, REQUIRED_FIELDS[0]!).dispatchEvent(new Event(type, { bubbles: true }));
      expect(preloaded(), `${type}: nothing inside the frame that answers it`).toEqual([]);
      await vi.waitFor(() => expect(island.runs(n), type).toBe(1));
      expect(preloaded()).toEqual([entry, ...imports]);
      control(form, REQUIRED_FIELDS[0]!).dispatchEvent(new Event(type, { bubbles: true }));
      await afterAFrame();
      expect([preloaded().length, island.runs(n)], `${type}: a second intent loads nothing more`).toEqual([imports.length + 1, 1]);
    }
  });

  it("not on an intent elsewhere on the page", async () => {
    const { n, config, preloaded } = open();
    for (const type of config.events) document.getElementById("outside")!.dispatchEvent(new Event(type, { bubbles: true }));
    await afterAFrame();
    expect([preloaded(), island.runs(n)]).toEqual([[], 0]);
  });
  it("a download cut off by leaving is asked for again at the next intent after the page is shown again from the cache", async () => {
    const { form, preloaded, imports } = open({ entry: "hanging" });
    control(form, REQUIRED_FIELDS[0]!).dispatchEvent(new Event("focusin", { bubbles: true }));
    await vi.waitFor(() => expect(preloaded()).toHaveLength(imports.length + 1));
    leave(true);
    dispatchEvent(pageTransition("pageshow", true));
    control(form, REQUIRED_FIELDS[0]!).dispatchEvent(new Event("pointerdown", { bubbles: true }));
    await afterAFrame();
    expect(preloaded()).toHaveLength(2 * (imports.length + 1));
  });
});

describe("a Send before the island is ready", () => {
  it("keeps the page, shows Sending... on the disabled button and the form busy in the same task, and loads the island at once", () => {
    const { form, button, layer, press, preloaded, entry } = open();
    fillContract(form, complete());
    expect(press().defaultPrevented).toBe(true);
    expect([button.textContent, button.disabled, form.getAttribute("aria-busy"), layer.sending()]).toEqual([
      contactForm.sending,
      true,
      "true",
      true,
    ]);
    expect(preloaded()[0]).toBe(entry);
  });

  it("is handed to the island with the exact values it was pressed with, even if edited after; ready() marks the page", () => {
    const text = fc.string({ minLength: 1, maxLength: 40 }).filter((v) => !isBlank(v));
    fc.assert(
      fc.property(fc.record(Object.fromEntries(CONTACT_FIELDS.map((name) => [name, text]))), fc.string(), (values, edit) => {
        const { config, form, layer, press } = open();
        fillContract(form, values);
        // As the controls hold them (an email input drops the spaces at its ends, as browsers do).
        values = Object.fromEntries(CONTACT_FIELDS.map((name) => [name, control(form, name).value]));
        press();
        for (const name of CONTACT_FIELDS) control(form, name).value = edit;
        const handed = layer.ready();
        expect(Object.fromEntries(CONTACT_FIELDS.map((name) => [name, handed.waiting?.get(name)]))).toEqual(values);
        expect(handed.resume).toBe(false);
        expect(document.documentElement.hasAttribute(config.readyAttribute)).toBe(true);
        expect([layer.sending(), layer.ready().waiting], "handed over once").toEqual([false, undefined]);
        document.documentElement.removeAttribute(config.readyAttribute);
      }),
      { numRuns: 30 },
    );
  });

  it.each([
    ["only spaces", "   "],
    ["only invisible characters (blank to the contract's isBlank)", "\u200B\u0301"],
  ])("with a required field holding %s shows no Sending..., and is still handed over (the island's toast)", (_, blankValue) => {
    for (const name of REQUIRED_FIELDS) {
      const { form, button, layer, press } = open();
      fillContract(form, { ...complete(), [name]: blankValue });
      expect(press().defaultPrevented, name).toBe(true);
      expect([button.textContent, button.disabled, form.hasAttribute("aria-busy"), layer.sending()], name).toEqual([
        contactForm.submit,
        false,
        false,
        false,
      ]);
      // What the control holds (an email input drops the spaces at its ends, as browsers do).
      expect(layer.ready().waiting?.get(name), name).toBe(control(form, name).value);
    }
  });

  it("pressed again while one waits does nothing: the first values are handed over, once", () => {
    const { form, layer, press, preloaded, imports } = open();
    fillContract(form, complete());
    press();
    control(form, REQUIRED_FIELDS[0]!).value = "Edited";
    expect(press().defaultPrevented).toBe(true);
    expect(preloaded()).toHaveLength(imports.length + 1);
    expect(layer.ready().waiting?.get(REQUIRED_FIELDS[0]!)).toBe(complete()[REQUIRED_FIELDS[0]!]);
  });

  it("is dropped as the page is left: the button and the form as they were, nothing handed over, nothing posted later", async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => {});
    const { form, button, layer, press } = open({ entry: "hanging", deadlineMs: 20, leavingGraceMs: 20 });
    fillContract(form, complete());
    press();
    leave(true);
    expect([button.textContent, button.disabled, form.hasAttribute("aria-busy"), layer.sending()]).toEqual([
      contactForm.submit,
      false,
      false,
      false,
    ]);
    expect(control(form, REQUIRED_FIELDS[0]!).value).toBe(complete()[REQUIRED_FIELDS[0]!]);
    await sleep(100);
    expect(submit, "the page posted itself after the visitor left").not.toHaveBeenCalled();
    expect(layer.ready().waiting).toBeUndefined();
  });

  it("after ready() is the island's own: not intercepted, the draft kept (the island sends and the page stays)", () => {
    const { form, button, layer, press, draft } = open();
    fillContract(form, complete());
    typed(form);
    layer.ready();
    expect(press().defaultPrevented).toBe(false);
    expect([button.textContent, button.disabled, form.hasAttribute("aria-busy")]).toEqual([contactForm.submit, false, false]);
    expect(draft()).toEqual(complete());
  });
});

describe("a Send whose island cannot load", () => {
  it("posts the form as without JavaScript, only after the leaving grace, and drops the draft", async () => {
    const grace = 300;
    let postedAt = 0;
    const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => void (postedAt = performance.now()));
    const { form, press, draft } = open({ entry: "failing", leavingGraceMs: grace });
    fillContract(form, complete());
    typed(form);
    const pressedAt = performance.now();
    press();
    await vi.waitFor(() => expect(submit).toHaveBeenCalledTimes(1), { timeout: 5000 });
    expect(postedAt - pressedAt).toBeGreaterThanOrEqual(grace - 5);
    expect(submit.mock.contexts[0]).toBe(form);
    expect(draft(), "Back from the server's answer shows no sent message").toBeNull();
    await sleep(grace);
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it("never posts when the page is left within the grace (an engine cancels the download as a navigation begins)", async () => {
    const grace = 200;
    const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => {});
    const { form, button, press, entry } = open({ entry: "failing", leavingGraceMs: grace });
    fillContract(form, complete());
    press();
    // The download has failed (the layer heard it first), and then the page is left.
    await import(/* @vite-ignore */ entry).catch(() => undefined);
    leave();
    await sleep(grace + 100);
    expect(submit).not.toHaveBeenCalled();
    expect([button.textContent, button.disabled]).toEqual([contactForm.submit, false]);
  });

  it("posts when the island has not come within the deadline", async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => {});
    const { form, layer, press } = open({ entry: "hanging", deadlineMs: 30, leavingGraceMs: 30 });
    fillContract(form, complete());
    press();
    await vi.waitFor(() => expect(submit).toHaveBeenCalledTimes(1), { timeout: 3000 });
    expect(layer.ready().waiting, "a Send posted is not handed over too").toBeUndefined();
  });

  it("leaves a later Send to the browser's own post, keeping no draft", async () => {
    const { form, press, draft, entry } = open({ entry: "failing" });
    fillContract(form, complete());
    typed(form);
    form.dispatchEvent(new Event("focusin", { bubbles: true }));
    await vi.waitFor(() => expect(document.head.querySelector("link[rel=modulepreload]")).not.toBeNull());
    await import(/* @vite-ignore */ entry).catch(() => undefined);
    await sleep(0);
    expect(press().defaultPrevented).toBe(false);
    expect(draft()).toBeNull();
  });
});

describe("the draft kept for Back", () => {
  // happy-dom has no HTMLOptionElement.defaultSelected (the reflected `selected` attribute): the browsers' own, here.
  const own = "defaultSelected" in HTMLOptionElement.prototype;
  beforeAll(() => {
    if (!own)
      Object.defineProperty(HTMLOptionElement.prototype, "defaultSelected", {
        configurable: true,
        get(this: HTMLOptionElement) {
          return this.hasAttribute("selected");
        },
        set(this: HTMLOptionElement, value: boolean) {
          this.toggleAttribute("selected", value);
        },
      });
  });
  afterAll(() => {
    if (!own) Reflect.deleteProperty(HTMLOptionElement.prototype, "defaultSelected");
  });
  type Kind = "text" | "email" | "textarea" | "select" | "checkbox" | "radio";
  type Spec = { kind: Kind; choices: readonly string[]; value: string };
  const CHOICES = ["alpha", "beta", "gamma"];
  const spec: fc.Arbitrary<Spec> = fc.oneof(
    fc.record({ kind: fc.constantFrom<Kind>("text", "email", "textarea"), choices: fc.constant([]), value: fc.string({ minLength: 1 }) }),
    fc
      .constantFrom<Kind>("select", "checkbox", "radio")
      .chain((kind) => fc.record({ kind: fc.constant(kind), choices: fc.constant(CHOICES), value: fc.constantFrom(...CHOICES) })),
  );
  const markup = (specs: Spec[]) => (attribute: string) =>
    `<form ${attribute}="">` +
    specs
      .map(({ kind, choices }, i) =>
        kind === "textarea"
          ? `<textarea name="f${i}"></textarea>`
          : kind === "select"
            ? `<select name="f${i}"><option value="" selected>Pick one</option>${choices.map((c) => `<option>${c}</option>`).join("")}</select>`
            : kind === "checkbox" || kind === "radio"
              ? choices.map((c) => `<input type="${kind}" name="f${i}" value="${c}">`).join("")
              : `<input type="${kind}" name="f${i}">`,
      )
      .join("") +
    `<button type="submit">Send</button></form>`;
  const set = (form: HTMLFormElement, specs: Spec[]) =>
    specs.forEach(({ kind, value }, i) => {
      if (kind === "checkbox" || kind === "radio") form.querySelector<HTMLInputElement>(`[name=f${i}][value=${value}]`)!.checked = true;
      else (form.elements.namedItem(`f${i}`) as HTMLInputElement).value = value;
    });
  const read = (form: HTMLFormElement, specs: Spec[]) => specs.map((_, i) => new FormData(form).getAll(`f${i}`));

  it("keeps and puts back every kind of control (input, textarea, select, checkbox, radio) on Back and on reload", () => {
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 6 }), fc.constantFrom<Arrival>("back_forward", "reload"), (specs, arrival) => {
        sessionStorage.clear();
        const first = open({ html: markup(specs) });
        set(first.form, specs);
        typed(first.form);
        const kept = read(first.form, specs);
        leave();
        const back = open({ html: markup(specs), arrival });
        expect(read(back.form, specs)).toEqual(kept);
      }),
      { numRuns: 40 },
    );
  });

  it("puts nothing into a control the browser restored itself: what it holds is the same, or newer", () => {
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 6 }), fc.array(spec, { minLength: 6, maxLength: 6 }), (specs, newer) => {
        sessionStorage.clear();
        const first = open({ html: markup(specs) });
        set(first.form, specs);
        leave();
        // The browser restored its own (newer) value into controls of the same kind (a radio group: below).
        const restored = specs.map((s, i) => ({
          ...s,
          value: newer[i]!.kind === s.kind && s.kind !== "radio" ? newer[i]!.value : s.value,
        }));
        const back = open({ html: markup(specs), arrival: "back_forward", before: (form) => set(form, restored) });
        const browser = open({ html: markup(specs), arrival: "navigate", before: (form) => set(form, restored) });
        // A checkbox is a set: the draft may add what was checked, never take away what the browser checked.
        const asSet = (values: FormDataEntryValue[][]) => values.map((v, i) => (specs[i]!.kind === "checkbox" ? [...v].sort() : v));
        const expected = read(browser.form, specs).map((values, i) =>
          specs[i]!.kind === "checkbox" ? [...values, specs[i]!.value] : values,
        );
        expect(asSet(read(back.form, specs))).toEqual(asSet(expected).map((v, i) => (specs[i]!.kind === "checkbox" ? [...new Set(v)] : v)));
      }),
      { numRuns: 40 },
    );
  });

  // A radio group is as the page started it only if every button in it is.
  it("a radio group the browser restored itself keeps the browser's choice", () => {
    const specs: Spec[] = [{ kind: "radio", choices: CHOICES, value: CHOICES[0]! }];
    const first = open({ html: markup(specs) });
    set(first.form, specs);
    typed(first.form);
    const back = open({
      html: markup(specs),
      arrival: "back_forward",
      before: (form) => set(form, [{ ...specs[0]!, value: CHOICES[1]! }]),
    });
    expect(read(back.form, specs)).toEqual([[CHOICES[1]]]);
  });

  // A select whose HTML marks no option `selected` shows its first option: as it started.
  it("a select with no option marked selected in its HTML is put back too", () => {
    const html = (attribute: string) =>
      `<form ${attribute}=""><select name="pick"><option value="">-</option><option>alpha</option></select></form>`;
    const first = open({ html });
    (first.form.elements.namedItem("pick") as HTMLSelectElement).value = "alpha";
    typed(first.form);
    const back = open({ html, arrival: "back_forward" });
    expect((back.form.elements.namedItem("pick") as HTMLSelectElement).value).toBe("alpha");
  });

  // A box is kept as its state where it is not its default, checked or not.
  it("a checkbox checked by default and unchecked by the visitor comes back unchecked", () => {
    const html = (attribute: string) => `<form ${attribute}=""><input type="checkbox" name="news" value="yes" checked></form>`;
    const first = open({ html });
    (first.form.elements.namedItem("news") as HTMLInputElement).checked = false;
    typed(first.form);
    const back = open({ html, arrival: "back_forward" });
    expect((back.form.elements.namedItem("news") as HTMLInputElement).checked).toBe(false);
  });

  it("starts empty on an arrival by link or address, and never keeps the honeypot", () => {
    const first = open();
    fillContract(first.form, { ...complete(), [FORM_META_FIELDS.trap]: "bot" });
    typed(first.form);
    expect(first.draft()).toEqual(complete());
    leave();
    const again = open({ arrival: "navigate" });
    expect(CONTACT_FIELDS.map((name) => control(again.form, name).value).every((v) => v === "")).toBe(true);
  });

  it("is saved as the visitor types, so a page left without a pagehide keeps it; an emptied or reset form removes it", () => {
    const { form, draft } = open();
    fillContract(form, complete());
    control(form, REQUIRED_FIELDS[0]!).dispatchEvent(new Event("change", { bubbles: true }));
    expect(draft()).toEqual(complete());
    for (const name of REQUIRED_FIELDS) control(form, name).value = "";
    typed(form);
    expect(draft()).toBeNull();
    fillContract(form, complete());
    typed(form);
    form.reset();
    form.dispatchEvent(new Event("reset", { bubbles: true }));
    expect(draft()).toBeNull();
  });

  it("keeps a field the browser empties as the page is left, and refills fields emptied on the way back from the back/forward cache, after pageshow too", async () => {
    const { form } = open();
    const [first, second] = REQUIRED_FIELDS as [string, string];
    fillContract(form, complete());
    typed(form);
    control(form, first).value = ""; // emptied by the browser (WebKit, autocomplete="off"): no input event
    leave(true);
    control(form, second).value = "";
    dispatchEvent(pageTransition("pageshow", true));
    expect([control(form, first).value, control(form, second).value]).toEqual([complete()[first], complete()[second]]);
    control(form, first).value = ""; // WebKit's reset as the page finishes resuming, after pageshow
    await afterAFrame();
    await sleep(10);
    expect(control(form, first).value).toBe(complete()[first]);
  });

  it("is dropped by forget(): the island's form was posted, and nothing is saved as the page is left", () => {
    const { form, layer, draft } = open();
    fillContract(form, complete());
    typed(form);
    layer.forget();
    expect(draft()).toBeNull();
    leave();
    expect(draft()).toBeNull();
  });

  it("lives without storage: nothing is saved, nothing throws", () => {
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("blocked", "SecurityError");
    });
    vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new DOMException("blocked", "SecurityError");
    });
    expect(() => open({ arrival: "back_forward" })).not.toThrow();
    fillContract(document.querySelector("form")!, complete());
    expect(() => typed(document.querySelector("form")!)).not.toThrow();
    expect(() => leave()).not.toThrow();
  });
});

describe("a page that comes back through history with its last Send unfinished", () => {
  const lastSend = (state: string) => sessionStorage.setItem(ATTEMPT_STORAGE_KEY, JSON.stringify({ key: "k", values: "{}", state }));

  for (const state of UNFINISHED)
    for (const arrival of ["back_forward", "reload"] as const)
      it(`loads the island at once and tells it to finish the Send (${state}, ${arrival})`, () => {
        lastSend(state);
        const { layer, preloaded, entry } = open({ arrival });
        expect(preloaded()[0]).toBe(entry);
        expect(layer.ready().resume).toBe(true);
      });

  it("does nothing for a Send answered otherwise, none at all, a record it cannot read, or an arrival by link", () => {
    for (const [record, arrival] of [
      ["settled", "back_forward"],
      [undefined, "back_forward"],
      ["{", "reload"],
      [UNFINISHED[0]!, "navigate"],
    ] as const) {
      sessionStorage.clear();
      if (record === "{") sessionStorage.setItem(ATTEMPT_STORAGE_KEY, "{");
      else if (record) lastSend(record);
      const { layer, preloaded } = open({ arrival });
      expect([preloaded(), layer.ready().resume], `${record} ${arrival}`).toEqual([[], false]);
    }
  });
});

describe("the page's script (formLayerSource)", () => {
  it("evaluates and installs the same global: a Send before ready shows Sending... and is handed over", () => {
    document.body.innerHTML = contractForm(pageConfig({ entry: "", imports: [] })[0].attribute);
    const form = document.querySelector("form")!;
    const source = formLayerSource({ entry: island.hanging(pages++), imports: [] });
    // Vitest rewrites the layer's import() into calls of its own; the page's engine runs import() itself.
    const rewritten = [...new Set(source.match(/__vite_ssr_import_\d+__/g))];
    new Function("__vite_ssr_dynamic_import__", ...rewritten, source)(
      (url: string) => import(/* @vite-ignore */ url),
      ...rewritten.map(() => ({ injectQuery: (url: string) => url })),
    );
    const layer = (window as unknown as Record<string, FormLayer | undefined>)[LAYER_GLOBAL];
    expect(Object.keys(layer ?? {}).sort()).toEqual(["forget", "ready", "sending"]);
    fillContract(form, complete());
    form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    expect([form.querySelector("button")!.textContent, layer!.sending()]).toEqual([contactForm.sending, true]);
    expect(layer!.ready().waiting?.get(REQUIRED_FIELDS[0]!)).toBe(complete()[REQUIRED_FIELDS[0]!]);
    dispatchEvent(pageTransition("pagehide", false));
  });

  it("carries the contract's isBlank as its blank check", () => {
    const [, blank] = pageConfig({ entry: "", imports: [] });
    const invisible = fc.constantFrom(" ", "\t", "\n", "\u00A0", "\u200B", "\u0301", "\u2028", "\u3164", "\uFEFF", "\u{E0041}");
    const text = fc.oneof(
      fc.string(),
      fc.array(invisible).map((cs) => cs.join("")),
      fc.tuple(fc.array(invisible), fc.string({ maxLength: 1 })).map(([cs, c]) => cs.join("") + c),
    );
    fc.assert(fc.property(text, (value) => blank(value) === isBlank(value)));
  });
});
