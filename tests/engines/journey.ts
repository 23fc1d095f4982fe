/**
 * One visitor's journey, taken on an engine other than Chromium (tests/e2e is the Chromium suite), against
 * the real local stack (stack.setup.ts). At a phone's 360 px: the page and its headings, the menu, the FAQ,
 * typing through the island's loading with no character lost, Back after following a link with everything
 * typed still there, sending an enquiry (the spec's success toast over no field, a cleared form, the mail
 * at the SMTP catcher), the 404 page, and no console errors anywhere but the 404 page's own. At a desktop's
 * 1440 px, what the width changes: the page, the menu, sending and where the toast lands (decision 015).
 * Send and then leaving, swept over the moments of the island and of leaving, with and without the
 * back/forward cache (decisions 029 and 030). Where the driver can fail a request (Firefox), supabase-js's
 * download fails once and the Send still goes by JavaScript. A press on Send's edge above a toast sends.
 * Then the same browser with JavaScript off sends the form: Post/Redirect/Get (decision 027).
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CONTACT_FIELDS, emptyMessage } from "#shared/contact-message.ts";
import {
  contactForm,
  contactSection,
  equipmentSection,
  faq,
  faqSection,
  gallerySection,
  notFound,
  servicesSection,
  toasts,
} from "~/content";
import { SENT_PAGE } from "~/enquiry/outcome";
import { LOCAL_STUDIO } from "../../scripts/local-stack/environment.mjs";
import { until, type Driver, type Launch, type LaunchOptions } from "./driver";

const VIEWPORTS = [
  { width: 360, height: 780 },
  { width: 1440, height: 900 },
] as const;
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/engines");
const FORM = "#contact form";
const field = (name: string) => `${FORM} [name=${name}]`;
const MOMENTS = ["before the island is ready", "after the island is ready"] as const;
type Moment = (typeof MOMENTS)[number];
/** How Send is pressed: a click on it, or Enter in a field (focus stays in the field). */
type Hand = "click" | "enter";

/**
 * `backForwardCache`: whether the engine's driver, as launched by default, keeps pages in the back/forward
 * cache (WebKit does whatever it is asked; Firefox's does not), and whether the leaving sweep runs again
 * on a browser launched with it (Firefox).
 */
export function describeJourney(
  engine: string,
  launch: (options?: LaunchOptions) => Promise<Launch>,
  backForwardCache: { byDefault: boolean; alsoWith: boolean },
) {
  const caches = [backForwardCache.byDefault ? "with" : "without", ...(backForwardCache.alsoWith ? ["with"] : [])];
  describe(`${engine}: a visitor's journey`, () => {
    let driver: Driver | undefined;
    let missing = "";
    beforeAll(async () => {
      const launched = await launch();
      if ("missing" in launched) {
        missing = launched.missing;
        console.log(`engines: ${engine} journey SKIPPED: ${missing}`);
      } else {
        driver = launched.driver;
        console.log(`engines: ${engine} journey on ${driver.name}`);
      }
    });
    afterAll(() => driver?.close());

    for (const viewport of VIEWPORTS) {
      const what =
        viewport.width < 800
          ? "page, menu, FAQ, typing through the island's loading, Back, sending, 404, no console errors"
          : "page, menu, sending and the toast, no console errors";
      it(`at ${viewport.width} px: ${what}`, async (context) => {
        if (!driver) return context.skip(missing);
        driver.takeEvents?.();
        try {
          await journey(driver, engine.toLowerCase(), viewport);
        } catch (error) {
          const events = driver.takeEvents?.() ?? [];
          if (events.length > 0)
            console.log(`engines: ${engine} at ${viewport.width} px, what the page went to and lost:\n${events.join("\n")}`);
          throw error;
        }
      });
    }

    for (const [index, cache] of caches.entries()) {
      it(`Send, then leaving and Back ${cache} the back/forward cache: the success toast with one enquiry, or the form as it was with none, at every moment`, async (context) => {
        if (!driver) return context.skip(missing);
        const own = index === 0;
        const launched = own ? { driver } : await launch({ scripts: true, backForwardCache: true });
        if ("missing" in launched) return context.skip(launched.missing);
        try {
          await leavingSweep(launched.driver, `${engine.toLowerCase()}-${cache}`, cache === "with");
        } catch (error) {
          const events = launched.driver.takeEvents?.() ?? [];
          if (events.length > 0)
            console.log(`engines: ${engine}, leaving ${cache} the cache, what the page went to and lost:\n${events.join("\n")}`);
          throw error;
        } finally {
          if (launched.driver !== driver) await launched.driver.close();
        }
      });
    }

    it("a press on the visible edge of Send above the failure toast sends: the page never moves between the press and its release", async (context) => {
      if (!driver) return context.skip(missing);
      await pressOnSendsEdge(driver);
    });

    it("supabase-js's download fails once: the Send still goes by JavaScript, toast and all, with no console error", async (context) => {
      if (!driver) return context.skip(missing);
      if (!driver.failNextRequest) return context.skip(`${driver.name}: its driver cannot make a request fail`);
      await downloadFailsOnce(driver, engine.toLowerCase());
    });

    it("at 200 % zoom on a 360 px phone (180 CSS px): nothing scrolls sideways, Book Now in the menu, fields focus in place, the toast over no field", async (context) => {
      if (!driver) return context.skip(missing);
      await zoomedPhone(driver, engine.toLowerCase());
    });

    it("with JavaScript off, at 360 px: a sent form goes on to the result page; Back shows the form without the message; Forward and Reload post nothing", async (context) => {
      if (!driver) return context.skip(missing);
      const launched = await launch({ scripts: false });
      if ("missing" in launched) return context.skip(launched.missing);
      try {
        await withoutScripts(launched.driver, engine.toLowerCase());
      } finally {
        await launched.driver.close();
      }
    });
  });
}

/** The form's values by name (the hidden trap left out). */
const readForm = (driver: Driver) =>
  driver.evaluate(
    (form) =>
      Object.fromEntries(
        [...document.querySelectorAll<HTMLInputElement>(`${form} [name]`)]
          .filter((c) => c.name !== "website")
          .map((c) => [c.name, c.value]),
      ),
    FORM,
  );

/** The names (or labels) of the form's fields whose box the success toast overlaps (the hidden trap left out). */
const fieldsUnderToast = (driver: Driver) =>
  driver.evaluate((form) => {
    const shown = document.querySelector("[data-tone=success]")!.getBoundingClientRect();
    return [...document.querySelectorAll<HTMLElement>(`${form} input:not([tabindex='-1']), ${form} textarea, ${form} button`)]
      .filter((c) => {
        const box = c.getBoundingClientRect();
        return box.left < shown.right && box.right > shown.left && box.top < shown.bottom && box.bottom > shown.top;
      })
      .map((c) => c.getAttribute("name") ?? c.textContent);
  }, FORM);

/**
 * Makes the function slow to answer an enquiry to `address` for `ms`: holds the database lock its
 * store takes for that mailbox (submit_enquiry's `confirmation:` advisory lock; the function waits up
 * to its 3 s lock_timeout). Resolves once held; the returned promise once released.
 */
async function holdEnquiriesTo(address: string, ms: number) {
  const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
  const lock = sql`hashtext(${`confirmation:${address.toLowerCase()}`})`;
  await sql`select pg_advisory_lock(${lock})`;
  return new Promise<void>((resolve) =>
    setTimeout(() => void sql`select pg_advisory_unlock(${lock})`.then(() => sql.end()).then(resolve), ms),
  );
}

/** The mails to `address` at the SMTP catcher. */
async function mailsTo(address: string) {
  const messages = (await (await fetch(`${inject("mailUrl")}/messages`)).json()) as { to: string }[];
  return messages.filter((m) => m.to.includes(address));
}

/** The studio's notifications of the enquiry titled `title` at the SMTP catcher. */
async function studioMails(title: string) {
  const messages = (await (await fetch(`${inject("mailUrl")}/messages`)).json()) as { to: string; text: string }[];
  return messages.filter((m) => m.text.includes(title) && m.to.includes(inject("studioInbox")));
}

async function journey(driver: Driver, engine: string, { width, height }: { width: number; height: number }) {
  const site = inject("siteUrl");
  const phone = width < 800;
  await driver.setViewport(width, height);
  await driver.goto(`${site}/`);

  // The page and its headings, from plain HTML; the studio's name whole in the header.
  const page = await driver.evaluate(() => {
    const name = document.querySelector("header a[href='#top'] span")!;
    const brokenWords = (name.textContent ?? "").split(/\s+/).filter((word) => {
      const text = name.firstChild!;
      const start = text.textContent!.indexOf(word);
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, start + word.length);
      return range.getClientRects().length > 1;
    });
    return {
      width: innerWidth,
      h1: document.querySelector("h1")?.textContent?.trim(),
      h2: [...document.querySelectorAll("h2")].map((h) => h.textContent?.trim()),
      name: name.textContent,
      brokenWords,
      sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      hydrated: document.documentElement.hasAttribute("data-hydrated"),
    };
  });
  expect(page.width, "the viewport").toBe(width);
  expect(page.h1).toBeTruthy();
  expect(page.h2).toEqual(
    expect.arrayContaining([
      servicesSection.heading,
      equipmentSection.heading,
      gallerySection.heading,
      contactSection.heading,
      faqSection.heading,
    ]),
  );
  expect(page.name).toBe(LOCAL_STUDIO.name);
  expect(page.brokenWords, "words of the studio's name broken across lines").toEqual([]);
  expect(page.sideways, "the page scrolls sideways").toBe(0);
  expect(page.hydrated, "hydrated before any intent").toBe(false);

  // The menu: the phone's folded one (a native <details>), or the desktop's links.
  if (phone) {
    await driver.click("header details summary");
    expect(await driver.evaluate(() => document.querySelector("header details")!.hasAttribute("open")), "the menu opens").toBe(true);
    await driver.click("header details nav a[href='#faq']");
    await until("the menu to close", () => driver.evaluate(() => !document.querySelector("header details")!.hasAttribute("open")));
  } else {
    await driver.click("header nav a[href='#faq']");
  }
  await until("the address to say #faq", () => driver.evaluate(() => location.hash === "#faq"));
  await until("the FAQ's heading just below the fixed header", () =>
    driver.evaluate(() => {
      const heading = document.querySelector("#faq h2")!.getBoundingClientRect();
      return heading.top >= document.querySelector("header")!.getBoundingClientRect().bottom - 1 && heading.bottom <= innerHeight;
    }),
  );

  // What does not depend on the width is the phone's alone (as the browser suite's desktop project
  // leaves it out: docs/decisions/015): the FAQ, typing through the island's loading, Back and the 404.
  let typed = "Grace Hopper";
  if (phone) typed = await throughIsland(driver);
  else {
    await driver.click(field("name"));
    await driver.type(typed);
  }

  // The rest of the form: everything typed is there (after a link away and Back, on the phone).
  const token = `${engine}-${width}-${Date.now().toString(36)}`;
  // Every field of the contract (an optional one without a value here stays empty).
  const values = {
    ...emptyMessage(),
    name: typed,
    email: `grace-${token}@example.com`,
    projectTitle: `Journey ${token}`,
    projectDetails: "Five songs, live drums.",
  };
  for (const name of CONTACT_FIELDS.filter((f) => f !== "name" && values[f] !== "")) {
    await driver.click(field(name));
    await driver.type(values[name]);
  }
  const read = () => readForm(driver);
  expect(await read()).toEqual(values);
  if (phone) {
    await driver.goto(`${site}/robots.txt`);
    await driver.back();
    await until("the page again", () => driver.evaluate((form) => !!document.querySelector(form), FORM));
    // Given the moment the page takes to parse to its end, where the draft comes back.
    await until("the form's values", async () => JSON.stringify(await read()) === JSON.stringify(values), 3_000).catch(() => undefined);
    expect(await read(), "the form after Back").toEqual(values);
  }

  // Sending: the spec's success toast, over none of the fields, a cleared form, and the mail.
  await driver.click(field("projectTitle"));
  await until("the island", () => driver.evaluate(() => document.documentElement.hasAttribute("data-hydrated")), 15_000);
  await driver.click(`${FORM} button[type=submit]`);
  const toast = await until("the success toast", () =>
    driver.evaluate(() => document.querySelector("[data-tone=success]")?.textContent ?? ""),
  );
  expect(toast).toContain(toasts.success.title);
  expect(toast).toContain(toasts.success.text);
  expect(await read(), "the form after sending").toEqual(emptyMessage());
  await new Promise((resolve) => setTimeout(resolve, 500)); // the toast's entrance
  expect(await fieldsUnderToast(driver), "fields under the toast").toEqual([]);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await driver.screenshot(path.join(SCREENSHOTS, `${engine}-${width}.png`));
  const mail = await until("the enquiry at the SMTP catcher", async () => (await studioMails(values.projectTitle))[0]);
  expect(mail.text).toContain(values.email);
  expect(await driver.takeConsoleErrors(), "console errors").toEqual([]);
  if (phone) await waysOut(driver);
}

/** The FAQ (the native accordion, before and after the island), and typing through the island's loading: what was typed. */
async function throughIsland(driver: Driver) {
  await driver.click("#faq-1-question");
  await until("the first answer to open", () => driver.evaluate(() => (document.getElementById("faq-1-answer")?.offsetHeight ?? 0) > 0));
  expect(await driver.evaluate(() => document.getElementById("faq-1-answer")!.textContent)).toContain(faq[0]!.answer);

  // Typing through the island's loading: no character lost or doubled as React takes the form. The
  // click that focuses the field is the intent that loads the island; the keys follow without a pause.
  await driver.evaluate(() => {
    const keys: boolean[] = ((window as unknown as { __keys: boolean[] }).__keys = []);
    addEventListener("keydown", () => keys.push(document.documentElement.hasAttribute("data-hydrated")), true);
  });
  await driver.click(field("name"));
  const typed = "Grace Brewster Murray Hopper of the Harvard Mark One team";
  await driver.type(typed);
  await until("the island", () => driver.evaluate(() => document.documentElement.hasAttribute("data-hydrated")), 15_000);
  const keys = await driver.evaluate(() => (window as unknown as { __keys: boolean[] }).__keys);
  expect(keys, "a keydown for every character").toHaveLength(typed.length);
  if (keys[0]) console.log("engines: the island was ready before the first key (nothing typed across its loading this time)");
  expect(await driver.evaluate((selector) => (document.querySelector(selector) as HTMLInputElement).value, field("name"))).toBe(typed);

  // The FAQ after the island: the same native accordion, one item open at a time.
  await driver.click("#faq-2-question");
  await until("the second answer to open", () =>
    driver.evaluate(
      () => document.querySelectorAll("#faq details[open]").length === 1 && !!document.querySelector("details:has(#faq-2-question)[open]"),
    ),
  );
  expect(await driver.evaluate(() => document.getElementById("faq-2-answer")?.textContent)).toContain(faq[1]!.answer);

  return typed;
}

/** The 404 page, and leaving it: on the phone (the ways out do not depend on the width). */
async function waysOut(driver: Driver) {
  const site = inject("siteUrl");
  // The 404 page: the spec's texts; its one console error is the spec's log of the path.
  await driver.goto(`${site}/no/such/page`);
  const lost = await driver.evaluate(() => ({
    text: document.body.innerText,
    link: document.querySelector<HTMLAnchorElement>("a[href='/']")?.textContent?.trim(),
  }));
  expect(lost.text).toContain(notFound.code);
  expect(lost.text).toContain(notFound.title);
  expect(lost.link).toBe(notFound.link);
  const errors: string[] = [];
  await until("the 404's log of the path", async () => {
    errors.push(...(await driver.takeConsoleErrors()));
    return errors.some((line) => /non-existent route: \/no\/such\/page/.test(line));
  });
  // Some engines also report the 404 document itself as a failed resource.
  const notThe404s = (lines: string[]) => lines.filter((line) => !/non-existent route|status of 404/.test(line));
  expect(notThe404s(errors), "console errors on the 404 page").toEqual([]);

  // Leaving the 404 page within a second: nothing it started is logged as failed (decision 026).
  await driver.goto(`${site}/no/such/page`);
  await driver.goto(`${site}/robots.txt`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(notThe404s(await driver.takeConsoleErrors()), "console errors after leaving the 404 page at once").toEqual([]);
}

/**
 * The form filled as autofill does (every field at once, input events, no keys), Send pressed as soon
 * as the page has loaded, the page left `leaveAfterMs` later for another, and Back after `awayMs`. The
 * enquiry is stored once or not at all, and the page says which: the success toast, or the form as it
 * was, enabled, with every value (a Send then stores it once). Never a frozen "Sending...", never an
 * empty form that says nothing, never the failure toast, never the page posted later from under the
 * visitor. A stored enquiry's confirmation reaches the visitor, however fast they sent it.
 */
async function sendThenLeave(
  driver: Driver,
  engine: string,
  width: number,
  {
    moment,
    leaveAfterMs,
    awayMs,
    slowMs,
    hand = "click",
  }: { moment: Moment; leaveAfterMs: number; awayMs: number; slowMs: number; hand?: Hand },
) {
  const site = inject("siteUrl");
  const how = `${moment}, sent by ${hand}, left after ${leaveAfterMs} ms, Back after ${awayMs} ms${slowMs ? `, answered after ${slowMs} ms` : ""}`;
  const token = `${engine}-${width}-${moment.split(" ")[0]}-${hand}-${leaveAfterMs}-${Date.now().toString(36)}`;
  const values = { name: "Ada Lovelace", email: `ada-${token}@example.com`, projectTitle: `Leaving ${token}`, projectDetails: "One song." };
  // An address of its own each time: the page before may be the one Back showed from the cache.
  await driver.goto(`${site}/?${token}`);
  if (moment === "after the island is ready") {
    await driver.click(field("name"));
    await until("the island", () => driver.evaluate(() => document.documentElement.hasAttribute("data-hydrated")), 15_000);
  }
  await driver.evaluate(
    (form, v) => {
      const element = document.querySelector<HTMLFormElement>(form)!;
      for (const [name, value] of Object.entries(v)) {
        const control = element.elements.namedItem(name) as HTMLInputElement;
        control.value = value;
        control.dispatchEvent(new Event("input", { bubbles: true }));
      }
    },
    FORM,
    values,
  );
  const answered = slowMs ? await holdEnquiriesTo(values.email, slowMs) : Promise.resolve();
  await driver.evaluate(() => void Object.assign(window, { __beforeLeaving: true }));
  if (hand === "click") await driver.click(`${FORM} button[type=submit]`);
  else {
    // Sent with focus kept in the field the visitor was in (Enter there, or a screen reader's activation of
    // Send): the browser gives the field its focus back as it shows the page again.
    await driver.click(field("projectTitle"));
    await driver.evaluate((form) => document.querySelector<HTMLButtonElement>(`${form} button[type=submit]`)!.click(), FORM);
  }
  if (leaveAfterMs) await new Promise((resolve) => setTimeout(resolve, leaveAfterMs));
  await driver.goto(`${site}/sitemap.xml`);
  if (awayMs) await new Promise((resolve) => setTimeout(resolve, awayMs));
  await driver.back();
  await until("the page again", () => driver.evaluate((form) => !!document.querySelector(form), FORM));
  // The same document again (the back/forward cache), or a new one.
  const fromCache = await driver.evaluate(() => "__beforeLeaving" in window);
  const state = () =>
    driver.evaluate(
      (form, fields) => {
        const element = document.querySelector<HTMLFormElement>(form)!;
        const button = element.querySelector<HTMLButtonElement>("button[type=submit]")!;
        return {
          path: location.pathname,
          values: Object.fromEntries(fields.map((n) => [n, (element.elements.namedItem(n) as HTMLInputElement).value])),
          button: button.textContent,
          enabled: !button.disabled && ![...element.querySelectorAll("input, textarea")].some((c) => c.hasAttribute("readonly")),
          success: !!document.querySelector("[data-tone=success]"),
          failure: !!document.querySelector("[data-tone=destructive], [data-inline-tone=destructive]"),
        };
      },
      FORM,
      [...CONTACT_FIELDS],
    );
  // Field by field: a WebDriver may hand the object back with its keys in another order.
  const same = (a: Record<string, string>, b: Record<string, string>) => Object.keys(b).every((name) => a[name] === b[name]);
  let last: unknown;
  const settled = await until(
    `the form after Back (${how}) to say what became of the Send`,
    async () => {
      const now = await state();
      last = now;
      const asItWas = same(now.values, values);
      return now.button === contactForm.submit && now.enabled && (now.success || asItWas) ? now : undefined;
    },
    15_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; the page then: ${JSON.stringify(last)}`);
  });
  expect(settled.failure, `the failure toast after Back (${how}) for an enquiry on its way`).toBe(false);
  expect(settled.path).toBe("/");
  // And it stays said: the success toast is on screen its 8 s, not taken away as the page settles.
  if (settled.success) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await state()).success, `the success toast after Back (${how}), 1.5 s on`).toBe(true);
  }
  let landed = "/";
  if (!settled.success && same(settled.values, values)) {
    // The form as it was: Send now, and the enquiry is stored once whatever became of the first. The
    // spec's success toast; or, where the scripts did not hydrate in time on a loaded machine, the
    // form posted as without JavaScript and the result page with the spec's success text.
    await driver.click(`${FORM} button[type=submit]`);
    landed = await until(
      "the success toast or the result page",
      () =>
        driver.evaluate(
          (sentPage, said) =>
            document.querySelector("[data-tone=success]")
              ? location.pathname
              : location.pathname === sentPage &&
                  document.readyState === "complete" &&
                  document.querySelector("#contact [role=status]")?.textContent?.includes(said)
                ? sentPage
                : "",
          SENT_PAGE,
          toasts.success.title,
        ),
      15_000,
    ).catch(async (error: Error) => {
      throw new Error(`${error.message} after a second Send (${how}); the page then: ${JSON.stringify(await state())}`);
    });
  }
  await answered;
  await until(`the enquiry (${how}) at the SMTP catcher`, async () => (await studioMails(values.projectTitle)).length > 0, 15_000);
  await until(`the visitor's confirmation (${how})`, async () => (await mailsTo(values.email)).length > 0, 15_000);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect((await studioMails(values.projectTitle)).length, `enquiries stored for one Send and leaving (${how})`).toBe(1);
  expect((await mailsTo(values.email)).length, `confirmations for one Send and leaving (${how})`).toBe(1);
  expect((await state()).path, "still on the page the visitor came Back to (or the result page of their second Send)").toBe(landed);
  return fromCache;
}

/**
 * Send, then leaving, then Back, swept (decisions 029 and 030): Send before the island is ready and after,
 * the page left at once, 100 or 250 ms later, Back at once or after 1.5 s away; and the function slow to
 * answer (its database waits 1.5 s), so the call is surely on its way as the page is left and answered
 * while it is away. Each ends in the success toast with one enquiry, or the form as it was with none.
 */
async function leavingSweep(driver: Driver, engine: string, withCache: boolean) {
  await driver.setViewport(360, 780);
  const tries: [Moment, number, number, number, Hand][] = [];
  for (const moment of MOMENTS)
    for (const leaveAfterMs of [0, 100, 250]) for (const awayMs of [0, 1500]) tries.push([moment, leaveAfterMs, awayMs, 0, "click"]);
  for (const moment of MOMENTS) tries.push([moment, 100, 2500, 1500, "click"]);
  // Sent from a field (focus kept there): the browser's own focus as it shows the page again is not the visitor's.
  for (const awayMs of [0, 1500])
    tries.push(["after the island is ready", 250, awayMs, 0, "enter"], ["before the island is ready", 250, awayMs, 0, "enter"]);
  let fromCache = 0;
  for (const [moment, leaveAfterMs, awayMs, slowMs, hand] of tries)
    if (await sendThenLeave(driver, engine, 360, { moment, leaveAfterMs, awayMs, slowMs, hand })) fromCache++;
  console.log(`engines: ${engine}: ${fromCache} of ${tries.length} Backs showed the page from the back/forward cache`);
  if (withCache) expect(fromCache, "Backs from the back/forward cache, which this sweep is for").toBeGreaterThan(tries.length / 2);
  // WebKit reports the call it cancels itself as the page is left, in its own words (not the page's
  // code, which logs nothing for a call cut off by leaving: decision 026).
  const engineOwn = /^CONSOLE JS ERROR Fetch API cannot load \S+\/functions\/v1\/send-contact-email due to access control checks\.$/;
  expect(
    (await driver.takeConsoleErrors()).filter((line) => !engineOwn.test(line)),
    "console errors, leaving included",
  ).toEqual([]);
}

/**
 * A press on the top edge of Send, the rest of it under the failure toast (a phone at 200 % zoom):
 * the press focuses Send, and the page must not scroll it away (the toast's step-aside rule) before the
 * release, or the release lands elsewhere and nothing is sent. Pressed, it sends: the missing-field toast
 * again (the form has a blank field past the browser's check), one more submit.
 */
async function pressOnSendsEdge(driver: Driver) {
  const site = inject("siteUrl");
  await driver.setViewport(180, 390);
  await driver.goto(`${site}/?press-edge#contact`);
  await driver.click(field("name"));
  await until("the island", () => driver.evaluate(() => document.documentElement.hasAttribute("data-hydrated")), 15_000);
  await driver.evaluate((form) => {
    const element = document.querySelector<HTMLFormElement>(form)!;
    element.noValidate = true;
    (window as unknown as { __submits: number }).__submits = 0;
    element.addEventListener("submit", () => (window as unknown as { __submits: number }).__submits++, true);
  }, FORM);
  await driver.click(`${FORM} button[type=submit]`);
  await until("the failure toast", () => driver.evaluate(() => !!document.querySelector("[data-tone=destructive]")), 15_000);
  await new Promise((resolve) => setTimeout(resolve, 500)); // the toast's entrance, and the page's own scroll
  // Send's top 12 px above the toast, the rest under it; focus elsewhere, so the press brings the focus.
  const edge = await driver.evaluate((form) => {
    (document.activeElement as HTMLElement | null)?.blur();
    const toast = document.querySelector("[data-tone=destructive]")!.getBoundingClientRect();
    const send = () => document.querySelector(`${form} button[type=submit]`)!.getBoundingClientRect();
    scrollBy({ top: send().top - (toast.top - 12), behavior: "instant" });
    const box = send();
    return { x: box.left + box.width / 2, y: box.top + 6, above: toast.top - box.top };
  }, FORM);
  expect(edge.above, "Send's visible edge above the toast").toBeGreaterThan(8);
  const before = await driver.evaluate(() => (window as unknown as { __submits: number }).__submits);
  await driver.pressAt(edge.x, edge.y, 150);
  await until(
    "the press to send",
    async () => (await driver.evaluate(() => (window as unknown as { __submits: number }).__submits)) > before,
  ).catch(() => {
    throw new Error("a press on Send's visible edge sent nothing: the page moved between the press and its release");
  });
}

/** The built file that holds supabase-js (the one that exports createClient), by its address. */
function supabaseFile() {
  const folder = path.resolve(import.meta.dirname, "../../public/build/_shared");
  const file = readdirSync(folder).find((name) => /\bcreateClient\b/.test(readFileSync(path.join(folder, name), "utf8").slice(-4_000)));
  if (!file) throw new Error(`no file in ${folder} exports createClient: is the build there?`);
  return file;
}

/**
 * supabase-js's download fails once, as a lost connection fails it: the page's next try fetches it
 * again, and the Send goes by JavaScript. Firefox keeps a failed module download for the page's life,
 * so a second import() of the same address failed at once and the page fell back to posting the form
 * ("Error loading the enquiry client", CI, 2026-11-26): app/enquiry/module-retry.client.ts.
 */
async function downloadFailsOnce(driver: Driver, engine: string) {
  const site = inject("siteUrl");
  const file = supabaseFile();
  await driver.setViewport(360, 780);
  // An address of its own: the journey before may have left the page at /#contact, where going to
  // /#contact again only scrolls, and the page, hydrated and holding supabase-js, downloads nothing.
  await driver.goto(`${site}/?download-fails-once#contact`);
  const interception = await driver.failNextRequest!(new RegExp(`/build/_shared/${file.replace(".", "\\.")}$`));
  try {
    await driver.click(field("name"));
    await until("hydration", () => driver.evaluate(() => document.documentElement.hasAttribute("data-hydrated")), 15_000);
    // The visitor's first pause: the page downloads supabase-js (send.client.ts, preloadSupabase), and it fails.
    await driver.type("Ada Lovelace");
    const failed = await Promise.race([interception.failed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000))]);
    expect(failed, "the download of supabase-js, failed once").toContain(file);
    const token = `${engine}-retry-${Date.now().toString(36)}`;
    for (const [name, value] of [
      ["email", `ada-${token}@example.com`],
      ["projectTitle", `Retry ${token}`],
    ] as const) {
      await driver.click(field(name));
      await driver.type(value);
    }
    await driver.click(`${FORM} button[type=submit]`);
    const toast = await until("the success toast", () =>
      driver.evaluate(() => document.querySelector("[data-tone=success]")?.textContent ?? ""),
    );
    expect(toast).toContain(toasts.success.title);
    expect(await driver.evaluate(() => location.pathname), "still the page, not the form posted").toBe("/");
    expect((await until("the enquiry at the SMTP catcher", async () => (await studioMails(`Retry ${token}`))[0])).text).toContain(token);
    expect(await driver.takeConsoleErrors(), "console errors").toEqual([]);
  } finally {
    await interception.stop();
  }
}

/**
 * 200 % zoom on a 360 × 780 phone lays the page out at 180 × 390 CSS px (decision 027):
 * nothing scrolls sideways, Book Now has moved into the menu and the menu button is whole, focusing a
 * field never moves the page sideways, and the success toast covers none of the fields on screen,
 * with Send in sight (app/toasts/placement.ts).
 */
async function zoomedPhone(driver: Driver, engine: string) {
  const site = inject("siteUrl");
  await driver.setViewport(180, 390);
  await driver.goto(`${site}/`);
  const layout = await driver.evaluate(() => {
    const visible = (element: Element | null) => !!element && element.getBoundingClientRect().width > 0;
    const menu = document.querySelector("header details summary")!.getBoundingClientRect();
    return {
      width: innerWidth,
      sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      bookNowInHeader: [...document.querySelectorAll("header a[href='#contact']")].some((a) => !a.closest("details") && visible(a)),
      menuButton: { left: menu.left, right: menu.right, screen: document.documentElement.clientWidth },
    };
  });
  expect(layout.width, "the viewport").toBe(180);
  expect(layout.sideways, "the page scrolls sideways").toBe(0);
  expect(layout.bookNowInHeader, "Book Now in the header bar").toBe(false);
  expect(layout.menuButton.left >= 0 && layout.menuButton.right <= layout.menuButton.screen, "the menu button whole on screen").toBe(true);

  const token = `${engine}-zoomed-${Date.now().toString(36)}`;
  const values = { ...emptyMessage(), name: "Ada Lovelace", email: `ada-${token}@example.com`, projectTitle: `Zoomed ${token}` };
  for (const name of CONTACT_FIELDS.filter((f) => values[f] !== "")) {
    await driver.click(field(name));
    expect(await driver.evaluate(() => scrollX), `the page moved sideways focusing ${name}`).toBe(0);
    await driver.type(values[name]);
  }
  await until("hydration", () => driver.evaluate(() => document.documentElement.hasAttribute("data-hydrated")), 15_000);
  await new Promise((resolve) => setTimeout(resolve, 300)); // people take longer than MIN_FILL_MS
  await driver.click(`${FORM} button[type=submit]`);
  await until("the success toast", () => driver.evaluate(() => !!document.querySelector("[data-tone=success]")), 15_000);
  // The toast's entrance, and the page's scroll bringing Send above it: until the page has stood still for 300 ms.
  let last = -1;
  await until(
    "the page to stop scrolling",
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const now = await driver.evaluate(() => scrollY);
      const still = now === last;
      last = now;
      return still;
    },
    15_000,
  );
  const covered = await fieldsUnderToast(driver);
  const seen = await driver.evaluate((form) => {
    const shown = document.querySelector("[data-tone=success]")!.getBoundingClientRect();
    const send = document.querySelector(`${form} button[type=submit]`)!.getBoundingClientRect();
    return {
      sendInSight: send.top >= document.querySelector("header")!.getBoundingClientRect().bottom && send.bottom <= innerHeight,
      sideways: scrollX,
      boxes: JSON.stringify({
        y: scrollY,
        shown,
        send,
        h: document.querySelector("header")!.getBoundingClientRect().bottom,
        sh: document.documentElement.scrollHeight,
      }),
    };
  }, FORM);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await driver.screenshot(path.join(SCREENSHOTS, `${engine}-180-toast.png`));
  expect(covered, `fields under the toast (the page: ${seen.boxes})`).toEqual([]);
  expect(seen.sendInSight, "Send in sight with the toast shown").toBe(true);
  expect(seen.sideways, "the page moved sideways").toBe(0);
  await until("the enquiry at the SMTP catcher", async () => (await studioMails(values.projectTitle))[0]);
  expect(await driver.takeConsoleErrors(), "console errors").toEqual([]);
}

/**
 * With JavaScript off (decision 027): the form posts to the server, which answers a sent
 * form with a 303 to the result page. Back shows the form the visitor sent from without the message
 * (Project Title and Details are autocomplete=off; name and e-mail may come back; WebKit brings the
 * details back), Forward and Reload
 * show the result page again, fetched with GET: one enquiry, however often, and no console errors.
 */
async function withoutScripts(driver: Driver, engine: string) {
  const site = inject("siteUrl");
  await driver.setViewport(360, 780);
  await driver.goto(`${site}/`);
  const token = `${engine}-no-scripts-${Date.now().toString(36)}`;
  const values = {
    ...emptyMessage(),
    name: "Ada Lovelace",
    email: `ada-${token}@example.com`,
    projectTitle: `No scripts ${token}`,
    projectDetails: "Two songs.",
  };
  for (const name of CONTACT_FIELDS.filter((f) => values[f] !== "")) {
    await driver.click(field(name));
    await driver.type(values[name]);
  }
  expect(await readForm(driver)).toEqual(values);
  await driver.click(`${FORM} button[type=submit]`);
  const at = () => driver.evaluate(() => ({ path: location.pathname, complete: document.readyState === "complete" }));
  await until("the result page", async () => {
    const now = await at();
    return now.path === SENT_PAGE && now.complete;
  });
  const notice = () => driver.evaluate(() => document.querySelector("#contact [role=status]")?.textContent ?? "");
  expect(await notice()).toContain(toasts.success.title);
  expect(await notice()).toContain(toasts.success.text);
  expect(await driver.evaluate(() => document.documentElement.hasAttribute("data-hydrated")), "the page's scripts ran").toBe(false);
  const oneEnquiry = async (after: string) => {
    await until("the enquiry at the SMTP catcher", async () => (await studioMails(values.projectTitle)).length > 0, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await studioMails(values.projectTitle)).length, `enquiries stored for one Send${after}`).toBe(1);
  };
  await oneEnquiry("");
  expect(await driver.takeConsoleErrors(), "console errors with JavaScript off").toEqual([]);

  await driver.back();
  expect((await at()).path).toBe("/");
  const back = await readForm(driver);
  expect(back.projectTitle, "the project title after Back").toBe("");
  // WebKit restores a textarea's text on Back whatever the textarea's own autocomplete says (it reads
  // its form's); a form-wide "off" stopped that, but broke WebKit's restore of name and e-mail with
  // JavaScript and its WebDriver's Back, so it is left as WebKit's.
  if (engine !== "webkit") expect(back.projectDetails, "the project details after Back").toBe("");
  expect(await notice(), "a notice on the form after Back").toBe("");

  await driver.forward();
  expect((await at()).path).toBe(SENT_PAGE);
  expect(await notice()).toContain(toasts.success.title);
  await driver.reload();
  expect((await at()).path).toBe(SENT_PAGE);
  expect(await notice()).toContain(toasts.success.title);

  await oneEnquiry(", Back, Forward and Reload");
  expect(await driver.takeConsoleErrors(), "console errors with JavaScript off, Back, Forward and Reload").toEqual([]);
}
