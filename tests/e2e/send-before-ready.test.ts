/**
 * Send keeps the spec's states at any moment after the first paint (decision 030): whether the click
 * lands before the island's modules are asked for, while they download, while React hydrates the island
 * or after, the button reads "Sending..." and is disabled one frame later, and the outcome is the
 * spec's: the success toast and a cleared form, the failure toast with the values kept (the function
 * stopped), or the missing-field toast with no call. The document is never reloaded.
 */
import type { Page, Route } from "@playwright/test";
import { contactForm, toasts } from "~/content";
import { LAYER_GLOBAL, READY_ATTRIBUTE as HYDRATED_ATTRIBUTE } from "~/enquiry/form-layer.inline";
import { expect, expectsConsoleErrors, slowCpu, takeConsoleErrors, test } from "./fixtures";

const MOMENTS = [
  "before the scripts are asked for",
  "while the scripts download",
  "while React hydrates",
  "after the island is ready",
] as const;
type Moment = (typeof MOMENTS)[number];
type Outcome = "success" | "failure" | "missing field" | "invisible field";

let seq = 0;

/** What the page saw: the button one frame after each Send, whether React had the page then, and calls made. */
function recordSends({ hydrated, layer }: { hydrated: string; layer: string }) {
  type Send = { text: string; disabled: boolean; hydrated: boolean; reactRunning: boolean };
  const page = window as unknown as { __seen: { sends: Send[] }; __reactRunning?: boolean; __pressWhenReactRuns?: () => void };
  const seen = (page.__seen = { sends: [] as Send[] });
  addEventListener(
    "submit",
    (event) => {
      const button = (event.target as HTMLFormElement).querySelector("button[type=submit]")!;
      const wasHydrated = document.documentElement.hasAttribute(hydrated);
      const reactRunning = !!page.__reactRunning;
      requestAnimationFrame(() =>
        seen.sends.push({
          text: button.textContent ?? "",
          disabled: (button as HTMLButtonElement).disabled,
          hydrated: wasHydrated,
          reactRunning,
        }),
      );
    },
    true,
  );
  // The island asks the page's layer whether a Send waits in its first render, which is React's
  // hydration under way: a Send asked for then is pressed as soon as React yields (a microtask), before
  // the island's effects have run, so before it has taken the form.
  Object.defineProperty(window, layer, {
    configurable: true,
    set(offer: { sending(): boolean }) {
      const sending = offer.sending;
      offer.sending = () => {
        if (!page.__reactRunning) {
          page.__reactRunning = true;
          if (page.__pressWhenReactRuns) queueMicrotask(page.__pressWhenReactRuns);
        }
        return sending();
      };
      Object.defineProperty(window, layer, { value: offer, writable: true, configurable: true });
    },
  });
}

/**
 * Opens the page and brings it to `moment`; returns once Send may be pressed, with what releases the
 * held scripts (null once released) and what gives a slowed page its full speed back.
 */
async function reach(page: Page, moment: Moment, values: Record<string, string>) {
  const held: Route[] = [];
  let holding = moment === "while the scripts download" || moment === "while React hydrates";
  await page.route(/\/build\/.*\.js$/, (route) => (holding ? void held.push(route) : route.fallback()));
  await page.addInitScript(recordSends, { hydrated: HYDRATED_ATTRIBUTE, layer: LAYER_GLOBAL });
  await page.goto("/#contact", { waitUntil: "load" });
  const form = page.locator("#contact form");
  if (moment === "before the scripts are asked for") {
    // Values the browser put back without events (a restored form): nothing has started the scripts.
    await form.evaluate((el: HTMLFormElement, v) => {
      for (const [name, value] of Object.entries(v)) (el.elements.namedItem(name) as HTMLInputElement).value = value;
    }, values);
  } else {
    // As autofill fills a form: input events, no keys. This is the visitor's intent.
    for (const [name, value] of Object.entries(values)) await form.locator(`[name=${name}]`).fill(value);
  }
  const release = async () => {
    holding = false;
    for (const route of held.splice(0)) await route.fallback();
  };
  if (moment === "while the scripts download") await expect.poll(() => held.length).toBeGreaterThan(0);
  if (moment === "while React hydrates") {
    // Filled while the scripts were held back; now they arrive, and Send is pressed as React starts.
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await form.evaluate((el: HTMLFormElement) => {
      (window as unknown as { __pressWhenReactRuns: () => void }).__pressWhenReactRuns = () => el.requestSubmit();
    });
    // A slow phone from here (slowCpu): the island takes a while to hydrate.
    const slowed = await slowCpu(page, 4);
    await release();
    return { release: null, fullSpeed: slowed };
  }
  if (moment === "after the island is ready")
    await page.waitForSelector(`html[${HYDRATED_ATTRIBUTE}]`, { state: "attached", timeout: 20_000 });
  return { release, fullSpeed: async () => {} };
}

async function pressSend(page: Page, moment: Moment, outcome: Outcome) {
  const t = `${Date.now().toString(36)}-${seq++}`;
  const values = {
    // Invisible: blank to the contract (isBlank), though the inline check, which only trims, lets it show "Sending...".
    name: outcome === "missing field" ? "   " : outcome === "invisible field" ? "\u200B\u0301" : "Ada Lovelace",
    email: `ada-${t}@example.com`,
    projectTitle: `Early Send ${t}`,
    projectDetails: "Four songs",
  };
  const calls: string[] = [];
  page.on("request", (request) => request.url().includes("/functions/v1/") && request.method() === "POST" && calls.push(request.url()));
  const { release, fullSpeed } = await reach(page, moment, values);
  // A new document has a new time origin (a history change within the page does not).
  const timeOrigin = await page.evaluate(() => performance.timeOrigin);
  if (release) {
    // The mouse, at the button's centre: a click that waits for nothing.
    const button = page.locator("#contact form button[type=submit]");
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await release();
  }
  return { t, values, calls, timeOrigin, fullSpeed };
}

async function expectOutcome(page: Page, moment: Moment, outcome: Outcome, sent: Awaited<ReturnType<typeof pressSend>>) {
  const where = `${outcome}, Send ${moment}`;
  const form = page.locator("#contact form");
  if (outcome === "success") {
    await expect(page.locator("[data-tone=success]"), where).toContainText(toasts.success.text, { timeout: 20_000 });
    await expect(page.locator("[data-tone=success]"), where).toContainText(toasts.success.title);
    await expect(form.locator("[name=projectTitle]"), where).toHaveValue("");
    await expect(form.locator("[name=name]"), where).toHaveValue("");
  } else if (outcome === "failure") {
    const toast = page.locator("[data-tone=destructive]");
    await expect(toast, where).toContainText(toasts.failure.title, { timeout: 20_000 });
    await expect(form.locator("[name=projectTitle]"), where).toHaveValue(sent.values.projectTitle);
    await expect(form.getByRole("button", { name: contactForm.submit }), where).toBeEnabled();
  } else {
    const toast = page.locator("[data-tone=destructive]");
    await expect(toast, where).toContainText(toasts.missingFields.title, { timeout: 20_000 });
    await expect(toast, where).toContainText(toasts.missingFields.text);
    await expect(form.locator("[name=projectTitle]"), where).toHaveValue(sent.values.projectTitle);
  }
  await sent.fullSpeed();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __seen: { sends: unknown[] } }).__seen.sends.length), where)
    .toBeGreaterThan(0);
  const seen = await page.evaluate(
    () =>
      (window as unknown as { __seen: { sends: { text: string; disabled: boolean; hydrated: boolean; reactRunning: boolean }[] } }).__seen,
  );
  const [first] = seen.sends;
  if (outcome === "missing field") expect(first!.text, where).toBe(contactForm.submit);
  else if (outcome === "invisible field") expect([contactForm.submit, contactForm.sending], where).toContain(first!.text);
  else expect(first, `${where}: the button one frame after the click`).toMatchObject({ text: contactForm.sending, disabled: true });
  expect(first!.hydrated, `${where}: React had the form already`).toBe(moment === "after the island is ready");
  if (moment === "while React hydrates") expect(first!.reactRunning, `${where}: React was not running yet`).toBe(true);
  if (moment.startsWith("before") || moment.startsWith("while the scripts")) expect(first!.reactRunning, where).toBe(false);
  expect(await page.evaluate(() => performance.timeOrigin), `${where}: the document was reloaded`).toBe(sent.timeOrigin);
  if (outcome === "missing field" || outcome === "invisible field") {
    await page.waitForTimeout(300);
    expect(sent.calls, `${where}: no call`).toEqual([]);
    // The form is the visitor's again: Send enabled, the fields editable.
    await expect(form.getByRole("button", { name: contactForm.submit }), where).toBeEnabled();
    await form.locator("[name=name]").fill("Ada Lovelace");
    await expect(form.locator("[name=name]"), where).toHaveValue("Ada Lovelace");
  }
}

/** A phone's tab of its own (the CPU is slowed for one moment), with its console errors collected. */
async function phone(browser: import("@playwright/test").Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 }, hasTouch: true, reducedMotion: "reduce" });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

test.describe("Send at any moment of the island's loading, with JavaScript on", () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) > 400, "each moment opens a phone tab of its own: the 360 px project");
  test.setTimeout(120_000);

  test("success: Sending... at once, then the success toast and a cleared form; one enquiry each; no reload", async ({
    browser,
    baseURL,
    stack,
  }) => {
    for (const moment of MOMENTS) {
      const { context, page, errors } = await phone(browser, baseURL);
      try {
        await page.waitForTimeout(250); // people take longer than MIN_FILL_MS
        const sent = await pressSend(page, moment, "success");
        await expectOutcome(page, moment, "success", sent);
        await expect
          .poll(async () => (await stack.db`select id from contact_enquiries where project_title = ${sent.values.projectTitle}`).length)
          .toBe(1);
        expect(errors, `Send ${moment}: console errors (a hydration mismatch would show here)`).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  test("failure (the function stopped): Sending... at once, then the failure toast with the values kept; no reload", async ({
    browser,
    baseURL,
    stack,
  }) => {
    await stack.stopFunction();
    try {
      for (const moment of MOMENTS) {
        const { context, page, errors } = await phone(browser, baseURL);
        try {
          const sent = await pressSend(page, moment, "failure");
          await expectOutcome(page, moment, "failure", sent);
          await takeConsoleErrors(errors, /Error sending contact message|Failed to fetch|ERR_CONNECTION_REFUSED/);
          expect(errors, `Send ${moment}: other console errors`).toEqual([]);
        } finally {
          await context.close();
        }
      }
    } finally {
      await stack.startFunction();
    }
  });

  // The two field checks make no call, and between them they take every moment in each run, two each;
  // which two is drawn anew each run, so each check meets every moment across runs. Each at all four
  // was eight phone tabs, two of them slowed (a slowed page keeps a core busy: fixtures.ts, slowCpu).
  const drawn = [...MOMENTS];
  for (let i = drawn.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [drawn[i], drawn[j]] = [drawn[j]!, drawn[i]!];
  }
  for (const [index, [outcome, what]] of (
    [
      ["missing field", "a required field with only spaces: the missing-field toast, no call, the values kept"],
      ["invisible field", "a required field of invisible characters only: the missing-field toast, no call, and the form usable again"],
    ] as const
  ).entries()) {
    test(`${what}; no reload`, async ({ browser, baseURL }) => {
      const moments = drawn.filter((_, i) => i % 2 === index);
      test.info().annotations.push({ type: "moments", description: moments.join("; ") });
      for (const moment of moments) {
        const { context, page, errors } = await phone(browser, baseURL);
        try {
          const sent = await pressSend(page, moment, outcome);
          await expectOutcome(page, moment, outcome, sent);
          expect(errors, `Send ${moment}: console errors`).toEqual([]);
        } finally {
          await context.close();
        }
      }
    });
  }

  test(
    "if the island cannot load, a Send before it posts the form without JavaScript: the enquiry arrives",
    expectsConsoleErrors(/ERR_INTERNET_DISCONNECTED/),
    async ({ page, stack }) => {
      await page.route(/\/build\/.*\.js$/, (route) => route.abort("internetdisconnected"));
      const t = `${Date.now().toString(36)}-${seq++}`;
      await page.goto("/");
      await page.waitForTimeout(250);
      const form = page.locator("#contact form");
      await form.getByLabel("Name").fill("Ada Lovelace");
      await form.getByLabel("Email").fill(`ada-${t}@example.com`);
      await form.getByLabel("Project Title").fill(`Scripts blocked ${t}`);
      await form.getByRole("button", { name: contactForm.submit }).click();
      await expect(page.locator("#contact").getByRole("status")).toContainText(toasts.success.title, { timeout: 20_000 });
      expect(await stack.db`select 1 from contact_enquiries where project_title = ${`Scripts blocked ${t}`}`).toHaveLength(1);
    },
  );
});
