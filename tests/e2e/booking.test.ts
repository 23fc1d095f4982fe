import type { Locator, Page } from "@playwright/test";
import { CONTACT_FIELDS, type ContactField } from "#shared/contact-message.ts";
import { contactForm, faq, fill as fillIn, formNotices, toasts } from "~/content";
import { READY_ATTRIBUTE as HYDRATED_ATTRIBUTE } from "~/enquiry/form-layer.inline";
import { SEND_TIME_LIMITS_MS } from "~/enquiry/send-time-limits";
import {
  answeredWith,
  expect,
  expectsConsoleErrors,
  hydrated,
  isHydrated,
  STUDIO_EMAIL,
  takeConsoleErrors,
  test,
  type Stack,
} from "./fixtures";

/** What the page logs when the function does not answer (stopped), or its answer is lost on the way. */
const FUNCTION_UNREACHABLE = /Error sending contact message|Failed to fetch|ERR_CONNECTION_REFUSED/;
const ANSWER_LOST = /Error sending contact message|ERR_CONNECTION_RESET|Failed to fetch/;

let seq = 0;
/** The site's built scripts, at any address the page asks for them (a retried download carries a query: module-retry.client.ts). */
const BUILT_SCRIPT = /\/build\/.+\.js(\?[^/]*)?$/;
const unique = () => `${Date.now().toString(36)}${seq++}`;

async function fill(page: Page, t: string, { details = `Four songs, ${t}` } = {}) {
  const form = page.locator("#contact form");
  await form.getByLabel("Name").fill("Ada Lovelace");
  await form.getByLabel("Email").fill(`ada-${t}@example.com`);
  await form.getByLabel("Project Title").fill(`Debut EP ${t}`);
  await form.getByLabel(/Project Details/).fill(details);
  return form;
}

/** Opens the page, waits for hydration and fills the form with values unique to `t`. */
async function openAndFill(page: Page, t: string) {
  await page.goto("/");
  await hydrated(page);
  return fill(page, t);
}

const rows = (stack: Stack, t: string) => stack.db`select * from contact_enquiries where project_title = ${`Debut EP ${t}`}`;
/** Presses Send while the function is stopped, checks what the visitor sees (`then`), and starts it again. */
async function sendWhileFunctionDown(stack: Stack, form: Locator, then: () => Promise<void>) {
  await stack.stopFunction();
  try {
    await form.getByRole("button", { name: contactForm.submit }).click();
    await then();
  } finally {
    await stack.startFunction();
  }
}

/** The spec's failure message with the studio's address, wherever it shows (toast, alert, inline notice). */
async function expectFailureMessage(notice: Locator) {
  await expect(notice).toContainText(toasts.failure.title);
  await expect(notice).toContainText(fillIn(toasts.failure.text, { email: STUDIO_EMAIL }));
}

/** What `fill` typed is still in `form`. */
async function expectKept(form: Locator, t: string) {
  await expect(form.getByLabel("Project Title")).toHaveValue(`Debut EP ${t}`);
  await expect(form.getByLabel(/Project Details/)).toHaveValue(`Four songs, ${t}`);
}

/** The enquiry's mails: the studio's names it; the confirmation goes to its address and repeats nothing of it. */
const mailsAbout = async (stack: Stack, t: string) =>
  (await stack.mails()).filter((m) => m.subject.includes(t) || m.text.includes(t) || m.to === `ada-${t}@example.com`);

test.describe("booking form (JavaScript on)", () => {
  test("Send pressed again once the page has hydrated, while the first post is still on its way: one enquiry, one pair of mails", async ({
    page,
    stack,
  }) => {
    const t = unique();
    // The first Send is the no-JavaScript post (below); that post is held on its way (a slow network
    // or a cold function), and the page hydrates meanwhile.
    let releasePost!: () => void;
    const post = new Promise<void>((resolve) => (releasePost = resolve));
    await page.route(
      (url) => url.pathname === "/" && url.search === "?index",
      async (route) => (route.request().method() === "POST" ? (await post, route.continue()) : route.continue()),
    );
    // While a navigation is under way Playwright's page queries wait for it: the page says when it
    // has hydrated on its console, and the clicks are the mouse's.
    await page.addInitScript((attribute) => {
      const poll = setInterval(() => {
        if (document.documentElement?.hasAttribute(attribute)) {
          clearInterval(poll);
          console.log("hydrated");
        }
      }, 20);
    }, HYDRATED_ATTRIBUTE);
    // The scripts are held until the form has posted: the page hydrates only once the post is on its way.
    let releaseScripts!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
    await page.route(BUILT_SCRIPT, async (route) => (await scriptsHeld, route.continue()));
    const hydration = page.waitForEvent("console", { predicate: (m) => m.text() === "hydrated", timeout: 20_000 });
    await page.goto("/");
    await page.waitForTimeout(250); // people take longer than MIN_FILL_MS
    // Details on two lines: a form post sends its line breaks as CRLF, the browser's path as LF.
    const form = await fill(page, t, { details: `Four songs, ${t}\nand a bonus track` });
    expect(await isHydrated(page)).toBe(false);
    await form.getByRole("button", { name: contactForm.submit }).scrollIntoViewIfNeeded();
    const send = (await form.getByRole("button", { name: contactForm.submit }).boundingBox())!;
    // The form posts without JavaScript, as a Send pressed before the island does when it has not
    // taken the form over within its deadline (app/enquiry/form-layer.inline.ts).
    await form.evaluate((el: HTMLFormElement) => HTMLFormElement.prototype.submit.call(el));
    releaseScripts();
    await hydration;
    expect((await rows(stack, t)).length).toBe(0);
    const answer = page.waitForResponse((r) => r.url().endsWith("/functions/v1/send-contact-email") && r.request().method() === "POST");
    await page.mouse.click(send.x + send.width / 2, send.y + send.height / 2);
    expect((await answer).status()).toBe(200);
    releasePost();
    await expect(page.locator("#contact").getByRole("status")).toContainText(toasts.success.title);
    expect((await rows(stack, t)).length).toBe(1);
    await expect.poll(async () => (await mailsAbout(stack, t)).length).toBe(2);
    await page.waitForTimeout(1000);
    expect((await mailsAbout(stack, t)).length).toBe(2);
  });

  test("a download of supabase-js cut off on its way (the visitor left as it came) is tried again on Send: the toast, no post, no console error", async ({
    page,
    stack,
  }) => {
    const t = unique();
    // The first download of the chunk supabase-js is in is held until Send has been pressed, then cut off.
    let held: import("@playwright/test").Route | undefined;
    let downloads = 0;
    await page.route(BUILT_SCRIPT, async (route) => {
      const response = await route.fetch();
      const text = await response.text();
      if ((text.includes("functions/v1") || text.includes("FunctionsClient")) && downloads++ === 0) return void (held = route);
      return route.fulfill({ response, body: text });
    });
    const form = await openAndFill(page, t);
    await expect.poll(() => held !== undefined, "the warm-up's download, on its way").toBe(true);
    await form.getByRole("button", { name: contactForm.submit }).click();
    await expect(form.getByRole("button", { name: contactForm.sending })).toBeVisible();
    await held!.abort("aborted");
    await expect(page.locator("[data-tone=success]")).toContainText(toasts.success.title);
    expect(downloads, "the download was cut off once, then made again").toBe(2);
    await expect.poll(async () => (await rows(stack, t)).length).toBe(1);
  });

  test("when supabase-js cannot load, Send posts the form as without JavaScript: the enquiry arrives", async ({
    page,
    stack,
    consoleErrors,
  }) => {
    const t = unique();
    // Every module the page needs to hydrate arrives; the one supabase-js is in (fetched on demand) does not.
    await page.route(BUILT_SCRIPT, async (route) => {
      const response = await route.fetch();
      const text = await response.text();
      if (text.includes("functions/v1") || text.includes("FunctionsClient")) return route.abort("blockedbyclient");
      return route.fulfill({ response, body: text });
    });
    const form = await openAndFill(page, t);
    await form.getByRole("button", { name: contactForm.submit }).click();
    await expect(page.locator("#contact").getByRole("status")).toContainText(toasts.success.title);
    await expect.poll(async () => (await rows(stack, t)).length).toBe(1);
    await expect.poll(async () => (await mailsAbout(stack, t)).length).toBe(2);
    await takeConsoleErrors(
      consoleErrors,
      /enquiry client|blockedbyclient|Failed to fetch dynamically imported module|ERR_BLOCKED_BY_CLIENT/,
    );
  });

  test("sends an enquiry: success toast, cleared form, one row, both mails", async ({ page, stack }) => {
    const t = unique();
    const form = await openAndFill(page, t);
    await form.getByRole("button", { name: contactForm.submit }).click();

    const toast = page.locator("[data-tone=success]");
    await expect(toast).toContainText(toasts.success.title);
    await expect(toast).toContainText(toasts.success.text);
    await expect(page.locator("#announcer")).toHaveText(`${toasts.success.title} ${toasts.success.text}`);
    for (const label of ["Name", "Email", "Project Title", /Project Details/]) await expect(form.getByLabel(label)).toHaveValue("");
    await expect(form.getByRole("button", { name: contactForm.submit })).toBeEnabled();

    await expect.poll(async () => (await rows(stack, t)).length).toBe(1);
    const [row] = await rows(stack, t);
    expect(row).toMatchObject({ name: "Ada Lovelace", email: `ada-${t}@example.com`, project_details: `Four songs, ${t}` });
    await expect.poll(async () => (await mailsAbout(stack, t)).length).toBe(2);
    const mails = await mailsAbout(stack, t);
    const studio = mails.find((m) => m.to === STUDIO_EMAIL)!;
    expect(studio.replyTo).toBe(`ada-${t}@example.com`);
    expect(studio.text).toContain(`Four songs, ${t}`);
    const confirmation = mails.find((m) => m.to === `ada-${t}@example.com`)!;
    expect(confirmation.text).toMatch(/^Hi there,/);
    expect(confirmation.text, "nothing the visitor wrote goes to the address they gave").not.toContain(t);
  });

  test("sends exactly the spec's JSON body to the function", async ({ page }) => {
    const t = unique();
    const form = await openAndFill(page, t);
    const request = page.waitForRequest((r) => r.url().endsWith("/functions/v1/send-contact-email") && r.method() === "POST");
    await form.getByRole("button", { name: contactForm.submit }).click();
    const sent = await request;
    expect(Object.keys(sent.postDataJSON()).sort()).toEqual([...CONTACT_FIELDS].sort());
    expect(sent.headers()["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.headers()["apikey"]).toBe("e2e-anon-key");
    await expect(page.locator("[data-tone=success]")).toBeVisible();
  });

  test("does not download supabase-js until the visitor starts on the form, and has it before they send", async ({ page }) => {
    const scripts: Promise<string>[] = [];
    page.on("response", (r) => r.request().resourceType() === "script" && scripts.push(r.text()));
    const isSupabase = (source: string) => source.includes("FunctionsHttpError") && source.includes("GoTrueClient");
    await page.goto("/");
    await page.waitForTimeout(1000); // a visitor reading the page
    expect((await Promise.all(scripts)).some(isSupabase), "supabase-js in the first view").toBe(false);
    await page.locator("#contact form").getByLabel("Name").focus();
    await expect.poll(async () => (await Promise.all(scripts)).some(isSupabase)).toBe(true);
  });

  test("with a required field blank (browser check bypassed): destructive toast and no request", async ({ page }) => {
    const form = await openAndFill(page, unique());
    await form.getByLabel("Email").fill("   ");
    await form.evaluate((el: HTMLFormElement) => (el.noValidate = true));
    let called = false;
    page.on("request", (r) => r.url().includes("/functions/v1/") && (called = true));
    await form.getByRole("button", { name: contactForm.submit }).click();
    const toast = page.locator("[data-tone=destructive]");
    await expect(toast).toContainText(toasts.missingFields.title);
    await expect(toast).toContainText(toasts.missingFields.text);
    await page.waitForTimeout(300);
    expect(called).toBe(false);
  });

  test(
    "with the function down: error toast with the studio e-mail, values kept",
    expectsConsoleErrors(FUNCTION_UNREACHABLE),
    async ({ page, stack }) => {
      const t = unique();
      const form = await openAndFill(page, t);
      await sendWhileFunctionDown(stack, form, async () => {
        const toast = page.locator("[data-tone=destructive]");
        await expectFailureMessage(toast);
        await expect(toast.getByRole("link", { name: STUDIO_EMAIL })).toHaveAttribute("href", `mailto:${STUDIO_EMAIL}`);
        await expectKept(form, t);
        await expect(form.getByRole("button", { name: contactForm.submit })).toBeEnabled();
      });
      // The visitor tries again once the function is back: it goes through, once.
      await page.locator("[data-tone=destructive]").getByRole("button", { name: toasts.dismiss }).click();
      await form.getByRole("button", { name: contactForm.submit }).click();
      await expect(page.locator("[data-tone=success]")).toBeVisible();
      await expect.poll(async () => (await rows(stack, t)).length).toBe(1);
    },
  );

  test("on a slow network: the button reads Sending... and is disabled, fields cannot change", async ({ page, stack }) => {
    const t = unique();
    await page.goto("/");
    await hydrated(page);
    await page.route("**/functions/v1/send-contact-email", async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    const form = await fill(page, t);
    await form.getByRole("button", { name: contactForm.submit }).click();
    const sending = form.getByRole("button", { name: contactForm.sending });
    await expect(sending).toBeVisible();
    await expect(sending).toBeDisabled();
    await expect(form.getByLabel("Name")).not.toBeEditable();
    await expect(page.locator("[data-tone=success]")).toBeVisible({ timeout: 10_000 });
    await expect(form.getByRole("button", { name: contactForm.submit })).toBeEnabled();
    await expect.poll(async () => (await rows(stack, t)).length).toBe(1);
  });

  test("a double click stores one enquiry", async ({ page, stack }) => {
    const t = unique();
    const form = await openAndFill(page, t);
    await form.getByRole("button", { name: contactForm.submit }).dblclick();
    await expect(page.locator("[data-tone=success]").first()).toBeVisible();
    await page.waitForTimeout(500);
    expect(await rows(stack, t)).toHaveLength(1);
  });

  test("a retry after a lost answer stores one enquiry", expectsConsoleErrors(ANSWER_LOST), async ({ page, stack }) => {
    const t = unique();
    await page.goto("/");
    await hydrated(page);
    // The function stores the enquiry, but the answer never reaches the browser.
    let first = true;
    await page.route("**/functions/v1/send-contact-email", async (route) => {
      if (route.request().method() !== "POST" || !first) return route.continue();
      first = false;
      await route.fetch();
      await route.abort("connectionreset");
    });
    const form = await fill(page, t);
    await form.getByRole("button", { name: contactForm.submit }).click();
    await expect(page.locator("[data-tone=destructive]")).toBeVisible();
    await form.getByRole("button", { name: contactForm.submit }).click();
    await expect(page.locator("[data-tone=success]")).toBeVisible();
    expect(await rows(stack, t)).toHaveLength(1);
  });

  test("a function that hangs: the failure toast after the stated limit, values kept; a second Send reuses the key: one enquiry", async ({
    page,
    stack,
    consoleErrors,
  }) => {
    const t = unique();
    // The page's clock, run as usual but able to jump ahead to the limit.
    await page.clock.install();
    await page.goto("/");
    await hydrated(page);
    // The first call reaches the function and is stored, but its answer never comes: the function hangs.
    const keys: string[] = [];
    let first = true;
    await page.route("**/functions/v1/send-contact-email", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      keys.push(route.request().headers()["idempotency-key"] ?? "");
      if (!first) return route.continue();
      first = false;
      await route.fetch();
    });
    const form = await fill(page, t);
    const send = form.getByRole("button", { name: contactForm.submit });
    await send.click();
    await expect.poll(() => keys.length).toBe(1);
    await expect.poll(async () => (await rows(stack, t)).length).toBe(1);
    await page.clock.fastForward(SEND_TIME_LIMITS_MS.browser - 1_000);
    await expect(form.getByRole("button", { name: contactForm.sending })).toBeDisabled();
    await page.clock.fastForward(1_000);
    const toast = page.locator("[data-tone=destructive]");
    await expect(toast).toContainText(toasts.failure.title);
    await expect(form.getByLabel("Project Title")).toHaveValue(`Debut EP ${t}`);
    await expect(form.getByLabel(/Project Details/)).toHaveValue(`Four songs, ${t}`);
    await takeConsoleErrors(consoleErrors, /Error sending contact message/);

    await toast.getByRole("button", { name: toasts.dismiss }).click();
    await send.click();
    await expect(page.locator("[data-tone=success]")).toBeVisible();
    expect(keys).toHaveLength(2);
    expect(keys[1], "the second Send's Idempotency-Key").toBe(keys[0]);
    expect(await rows(stack, t)).toHaveLength(1);
  });

  test("shows the function's field errors beside their field and focuses the first", async ({ page, consoleErrors }) => {
    const form = await openAndFill(page, unique());
    // The browser accepts this address; the shared contract does not.
    await form.getByLabel("Email").fill("ada@localhost");
    await form.getByRole("button", { name: contactForm.submit }).click();
    const email = form.getByLabel("Email");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription(/valid email address/);
    await expect(email).toBeFocused();
    await expect(page.locator("[data-tone=destructive]")).toContainText(toasts.failure.title);
    await takeConsoleErrors(consoleErrors, /422/);
  });

  test("works by keyboard alone, from Book Now to a sent enquiry", async ({ page, stack }) => {
    const t = unique();
    await page.goto("/");
    await hydrated(page);
    // Tab from the top of the page to Book Now.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press("Tab");
      if (
        await page
          .getByRole("banner")
          .getByRole("link", { name: "Book Now" })
          .evaluate((el) => el === document.activeElement)
      )
        break;
    }
    await expect(page.getByRole("banner").getByRole("link", { name: "Book Now" })).toBeFocused();
    await page.keyboard.press("Enter");
    const form = page.locator("#contact form");
    for (let i = 0; i < 5 && !(await form.getByLabel("Name").evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press("Tab");
    }
    await expect(form.getByLabel("Name")).toBeFocused();
    // Every field of the contract, in its order; an optional one without a value here is left empty.
    const typed: Partial<Record<ContactField, string>> = {
      name: "Ada Lovelace",
      email: `ada-${t}@example.com`,
      projectTitle: `Debut EP ${t}`,
      projectDetails: "Keyboard only",
    };
    for (const field of CONTACT_FIELDS) {
      await page.keyboard.type(typed[field] ?? "");
      await page.keyboard.press("Tab");
    }
    await expect(form.getByRole("button", { name: contactForm.submit })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator("[data-tone=success]")).toBeVisible();
    await expect.poll(async () => (await rows(stack, t)).length).toBe(1);
  });
});

test.describe("booking form (JavaScript off)", () => {
  test.use({ javaScriptEnabled: false });

  test("the page reads completely, FAQ answers included", async ({ page }) => {
    await page.goto("/");
    // Every answer is in the page; a question opens its answer (the accordion is native <details>).
    const faqSection = page.locator("#faq");
    for (const item of faq) await expect(faqSection.getByText(item.answer)).toBeAttached();
    const { question, answer } = faq[0]!;
    await faqSection.getByText(question).click();
    await expect(faqSection.getByText(answer)).toBeVisible();
  });

  test("posts to the server: success notice, cleared form, one row, both mails", async ({ page, stack }) => {
    const t = unique();
    await page.goto("/");
    await page.waitForTimeout(250); // people take longer than MIN_FILL_MS
    const form = await fill(page, t);
    await form.getByRole("button", { name: contactForm.submit }).click();
    const notice = page.locator("#contact").getByRole("status");
    await expect(notice).toContainText(toasts.success.title);
    await expect(notice).toContainText(toasts.success.text);
    await expect(page.locator("#contact form").getByLabel("Name")).toHaveValue("");
    expect(await rows(stack, t)).toHaveLength(1);
    await expect.poll(async () => (await mailsAbout(stack, t)).length).toBe(2);
  });

  test("the same post twice (a browser's resend) stores one enquiry; two different messages store two", async ({ page, stack }) => {
    const t = unique();
    const post = (title: string) =>
      page.request.post("/?index", {
        form: { name: "Ada Lovelace", email: `ada-${t}@example.com`, projectTitle: title, projectDetails: "", website: "" },
        maxRedirects: 0,
      });
    // Each is sent on to the result page (303); a browser that resends the post is one that never got the 303.
    for (let i = 0; i < 2; i++) expect((await post(`Debut EP ${t}`)).status()).toBe(303);
    expect(await rows(stack, t)).toHaveLength(1);
    expect((await post(`Second EP ${t}`)).status()).toBe(303);
    expect(await stack.db`select id from contact_enquiries where project_title = ${`Second EP ${t}`}`).toHaveLength(1);
  });

  test("a blank required field: the spec's message, no enquiry", expectsConsoleErrors(answeredWith(400)), async ({ page, stack }) => {
    const t = unique();
    await page.goto("/");
    const form = await fill(page, t);
    await form.getByLabel("Name").fill(" ");
    await form.evaluate((el: HTMLFormElement) => (el.noValidate = true));
    await form.getByRole("button", { name: contactForm.submit }).click();
    const alert = page.locator("#contact").getByRole("alert");
    await expect(alert).toContainText(toasts.missingFields.title);
    await expect(alert).toContainText(toasts.missingFields.text);
    await expect(page.locator("#contact form").getByLabel("Project Title")).toHaveValue(`Debut EP ${t}`);
    expect(await rows(stack, t)).toHaveLength(0);
  });

  test(
    "an address mail servers refuse: its own message beside the field, values kept, no enquiry",
    expectsConsoleErrors(answeredWith(422)),
    async ({ page, stack }) => {
      const t = unique();
      await page.goto("/");
      const form = await fill(page, t);
      // Browsers accept consecutive dots in type=email; mail servers do not.
      await form.getByLabel("Email").fill("ada..lovelace@example.com");
      await form.getByRole("button", { name: contactForm.submit }).click();
      await expect(page.locator("#contact").getByRole("alert")).toContainText(formNotices.invalid.title);
      const kept = page.locator("#contact form");
      await expect(kept.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
      await expect(kept.getByText(/Enter a valid email address/)).toBeVisible();
      await expect(kept.getByLabel("Email")).toHaveValue("ada..lovelace@example.com");
      await expect(kept.getByLabel("Project Title")).toHaveValue(`Debut EP ${t}`);
      expect(await rows(stack, t)).toHaveLength(0);
    },
  );

  test("over the sender's own limit: when to try again, values kept, not the failure text", async ({ browser, stack }) => {
    // One visitor (every post here comes from 127.0.0.1; a new salt gives it a bucket of its own); a
    // limit of one enquiry. What the visitor says in X-Forwarded-For does not change their bucket.
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await stack.stopFunction();
    await stack.startFunction({ RATE_LIMIT_PER_CLIENT: "1", IP_HASH_SALT: `e2e-salt-${unique()}-0123456789abcdefghij` });
    try {
      for (const attempt of ["first", "second"]) {
        const t = `${unique()}-${attempt}`;
        await context.setExtraHTTPHeaders({ "x-forwarded-for": `198.51.100.${attempt === "first" ? 1 : 2}` });
        await page.goto(`${stack.siteUrl}/`);
        const form = await fill(page, t);
        await form.getByRole("button", { name: contactForm.submit }).click();
        if (attempt === "first") {
          await expect(page.locator("#contact").getByRole("status")).toContainText(toasts.success.title);
          continue;
        }
        const alert = page.locator("#contact").getByRole("alert");
        await expect(alert).toContainText(/Please try again in \d+ minutes/);
        await expect(alert).not.toContainText(toasts.failure.title);
        await expect(page.locator("#contact form").getByLabel("Project Title")).toHaveValue(`Debut EP ${t}`);
        expect(await rows(stack, t)).toHaveLength(0);
      }
    } finally {
      await context.close();
      await stack.stopFunction();
      await stack.startFunction();
    }
  });

  test("posts that cannot be a visitor's form get a clear 4xx page, never a 500", async ({ request, stack }) => {
    const post = (options: Parameters<typeof request.post>[1]) => request.post("/?index", options);
    const json = await post({ data: { name: "Ada" } });
    expect(json.status(), "JSON").toBe(415);
    expect(await json.text(), "a page the visitor can read").toContain(formNotices.refused.title);
    expect((await post({ headers: { "content-type": "" }, data: "" })).status(), "empty, no type").toBe(415);
    expect((await post({ headers: { "content-type": "application/x-www-form-urlencoded" }, data: "" })).status(), "empty form").toBe(400);
    // Another site's post, a sandboxed frame's (Origin: null) and one a browser marks cross-site: the
    // form's 403 page (the front door answers before Remix's own check could answer a bare 500).
    for (const headers of [{ origin: "https://evil.example" }, { origin: "null" }, { "sec-fetch-site": "cross-site" }] as Record<
      string,
      string
    >[]) {
      const title = `CSRF ${unique()}`;
      const crossSite = await post({ headers, form: { name: "Ada", email: "a@example.com", projectTitle: title } });
      expect(crossSite.status(), JSON.stringify(headers)).toBe(403);
      expect(await crossSite.text()).toContain(formNotices.refused.title);
      expect(await stack.db`select id from contact_enquiries where project_title = ${title}`, "nothing stored").toHaveLength(0);
    }
    const started = Date.now();
    const huge = await post({
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: `name=${"x".repeat(20 * 1024 * 1024)}`,
    });
    expect(huge.status(), "20 MB").toBe(413);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test("with the function down: the failure notice, values kept", expectsConsoleErrors(answeredWith(502)), async ({ page, stack }) => {
    const t = unique();
    await page.goto("/");
    await page.waitForTimeout(250);
    const form = await fill(page, t);
    await sendWhileFunctionDown(stack, form, async () => {
      await expectFailureMessage(page.locator("#contact").getByRole("alert"));
      // The post brought a new page: its form holds what was sent.
      await expectKept(page.locator("#contact form"), t);
    });
  });
});

test.describe("booking form when the toast code cannot load", () => {
  test(
    "the outcome shows inside the form instead",
    expectsConsoleErrors(/ERR_INTERNET_DISCONNECTED/, FUNCTION_UNREACHABLE),
    async ({ page, stack }) => {
      await page.route("**/build/_shared/ToastRack-*.js", (route) => route.abort("internetdisconnected"));
      const form = await openAndFill(page, unique());
      await sendWhileFunctionDown(stack, form, async () => {
        await expectFailureMessage(page.locator("[data-inline-tone=destructive]"));
        await expect(page.locator("#announcer")).toContainText(toasts.failure.title);
      });
    },
  );
});
