/**
 * The booking form's island loads when the visitor starts on the form, and only then (decision 030):
 * the first view fetches no JavaScript modules and carries no framework, reading, scrolling, the menu,
 * Book Now and the FAQ never fetch them, and the page works before, during and without them.
 */
import type { Page, Route } from "@playwright/test";
import { contactForm, faq, toasts } from "~/content";
import { READY_ATTRIBUTE } from "~/enquiry/form-layer.inline";
import { expect, expectsConsoleErrors, isHydrated, slowCpu, test } from "./fixtures";

/** Tab, as a keyboard visitor does, from the top of the page until focus is in the booking form. */
async function tabIntoForm(page: Page) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => !!document.activeElement?.closest("#contact form"))) return;
  }
  throw new Error("Tab never reached the booking form");
}

const moduleRequests = (page: Page) => {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (/\/build\/.*\.js$/.test(new URL(request.url()).pathname)) seen.push(request.url());
  });
  return seen;
};

test.describe("the island when the visitor starts on the form", () => {
  test("the first view fetches no JavaScript modules and carries no framework; the FAQ is the native accordion, closed", async ({
    page,
  }) => {
    const modules = moduleRequests(page);
    await page.goto("/", { waitUntil: "load" });
    await page.waitForTimeout(1000); // idle, as a visitor reading the hero would be
    expect(modules).toEqual([]);
    expect(await isHydrated(page)).toBe(false);
    // No router, no route modules, no framework context: the page is HTML.
    expect(await page.evaluate(() => "__remixContext" in window || "__remixManifest" in window)).toBe(false);
    await expect(page.locator("link[rel=modulepreload], script[type=module]")).toHaveCount(0);
    await expect(page.locator("#faq details[name=faq]")).toHaveCount(faq.length);
    await expect(page.getByText(faq[0]!.answer)).toBeAttached();
    await expect(page.getByText(faq[0]!.answer)).toBeHidden();
  });

  test("scrolling, pointer moves, keys, the menu, Book Now and FAQ taps fetch nothing: each works as plain HTML", async ({ page }) => {
    const modules = moduleRequests(page);
    await page.goto("/", { waitUntil: "load" });
    await page.mouse.move(20, 20);
    await page.mouse.wheel(0, 600);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Shift+Tab");
    const wide = (page.viewportSize()?.width ?? 0) > 800;
    if (!wide) {
      await page.getByLabel("Menu").click();
      await expect(page.locator("header details")).toHaveAttribute("open", "");
      await page.getByLabel("Menu").click();
      await expect(page.locator("header details")).not.toHaveAttribute("open", "");
      // Following a link in the menu closes it, before hydration too: it must not cover the section.
      await page.getByLabel("Menu").click();
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "FAQ" }).click();
      await expect(page).toHaveURL(/#faq$/);
      await expect(page.locator("header details")).not.toHaveAttribute("open", "");
    }
    await page.getByRole("banner").getByRole("link", { name: "Book Now" }).click();
    await expect(page).toHaveURL(/#contact$/);
    await page.locator("#faq-2-question").click();
    await expect(page.getByText(faq[1]!.answer)).toBeVisible();
    await page.waitForTimeout(500);
    expect(modules).toEqual([]);
    expect(await isHydrated(page)).toBe(false);
  });

  test.describe("with the page's smooth scrolling (no reduced motion)", () => {
    test.use({ contextOptions: { reducedMotion: "no-preference" } });
    for (const [hand, focus] of [
      ["Tab from the page above", (page: Page) => tabIntoForm(page)],
      ["a focus by script (autofill, a screen reader)", (page: Page) => page.locator("#contact form").getByLabel("Name").focus()],
    ] as const) {
      test(`${hand}: the field is in view at once, with no slide of the page to wait for (only a focused link slides it), and the island loads`, async ({
        page,
      }) => {
        await page.goto("/", { waitUntil: "load" });
        await page.waitForTimeout(500);
        await focus(page);
        const focused = () =>
          page.evaluate(() => {
            const box = document.activeElement!.getBoundingClientRect();
            return { top: box.top, bottom: box.bottom, height: innerHeight, scrollY };
          });
        const atOnce = await focused();
        expect(atOnce.top, "the focused field, right after the focus").toBeGreaterThanOrEqual(0);
        expect(atOnce.bottom, "the focused field, right after the focus").toBeLessThanOrEqual(atOnce.height);
        await page.waitForTimeout(300);
        expect((await focused()).scrollY, "the page stood still after the focus").toBe(atOnce.scrollY);
        await expect.poll(() => isHydrated(page), { timeout: 15_000 }).toBe(true);
      });
    }
  });

  // What follows does not depend on the width: the phone runs it (the desktop keeps what the width
  // changes: the menu, where the form sits, the slide of the page).
  test.describe("whatever the width", () => {
    test.skip(({ isMobile }) => !isMobile, "runs in the mobile project only");

    for (const [intent, act] of [
      ["a tap on a field", (page: Page) => page.locator("#contact form").getByLabel("Name").click()],
      [
        "a key on a focused field",
        async (page: Page) => {
          await page.locator("#contact form").getByLabel("Email").focus();
          await page.keyboard.press("a");
        },
      ],
    ] as const) {
      test(`${intent} in the form loads the island's modules only, and React has the form; the FAQ stays the native accordion`, async ({
        page,
      }) => {
        const modules = moduleRequests(page);
        await page.goto("/", { waitUntil: "load" });
        await act(page);
        await expect.poll(() => isHydrated(page)).toBe(true);
        expect(modules.length).toBeGreaterThan(0);
        // The client entry and the library chunks it imports: no route module, no router.
        expect(modules.filter((url) => !/\/build\/(entry\.client-|_shared\/)/.test(url))).toEqual([]);
        await expect(page.locator("#faq details[name=faq]")).toHaveCount(faq.length);
        await expect(page.getByText(faq[0]!.answer)).toBeHidden();
      });
    }

    test("what a visitor types while the modules load is kept, and sent", async ({ page, stack }) => {
      // Hold the modules back until the form is filled in, as a slow phone network would.
      const held: Route[] = [];
      let release = false;
      await page.route(/\/build\/.*\.js$/, (route) => (release ? route.continue() : void held.push(route)));
      await page.goto("/");
      const t = `typed-early-${Date.now().toString(36)}`;
      const form = page.locator("#contact form");
      await form.getByLabel("Name").fill("Grace Hopper");
      await form.getByLabel("Email").fill(`grace-${t}@example.com`);
      await form.getByLabel("Project Title").fill(`Early bird ${t}`);
      await expect.poll(() => held.length).toBeGreaterThan(0);
      expect(await isHydrated(page)).toBe(false);

      release = true;
      for (const route of held.splice(0)) await route.continue();
      await expect.poll(() => isHydrated(page)).toBe(true);
      await page.waitForTimeout(250); // people take longer than MIN_FILL_MS
      await form.getByRole("button", { name: contactForm.submit }).click();

      await expect(page.locator("[data-tone=success]")).toContainText(toasts.success.title);
      const rows = await stack.db`select name, email from contact_enquiries where project_title = ${`Early bird ${t}`}`;
      expect(rows).toEqual([{ name: "Grace Hopper", email: `grace-${t}@example.com` }]);
    });

    test("in-page links followed while the island loads keep what was typed, the open answer and focus", async ({ page }) => {
      // A slow phone, so the island takes a while to load and hydrate.
      const fullSpeed = await slowCpu(page, 8);
      // Until the island has the form, the address's fragment keeps changing, as Book Now, the menu's
      // links or a screen reader's link activation change it.
      await page.addInitScript((attribute) => {
        let next = 0;
        const jump = () => {
          if (document.documentElement?.hasAttribute(attribute)) return;
          // What the browser does for Back between fragments (without moving focus): a new address, then popstate.
          if (document.readyState !== "loading") {
            history.pushState(null, "", ["#contact", "#faq", "#services"][next++ % 3]);
            dispatchEvent(new PopStateEvent("popstate"));
          }
          setTimeout(jump, 15);
        };
        jump();
      }, READY_ATTRIBUTE);
      await page.goto("/");
      await page.locator("#faq-2-question").click();
      const name = page.locator("#contact form").getByLabel("Name");
      await name.click();
      await page.keyboard.type("Alice", { delay: 50 });
      await expect.poll(() => isHydrated(page), { timeout: 30_000 }).toBe(true);
      await fullSpeed();
      await expect(name).toHaveValue("Alice");
      await expect(name).toBeFocused();
      await expect(page.locator("details:has(#faq-2-question)")).toHaveAttribute("open", "");
      expect(await page.evaluate(() => location.hash)).toMatch(/^#(contact|faq|services)$/);
    });

    test(
      "if the modules never arrive, the page still works: the form posts to the server, and Back shows the form without the message sent",
      expectsConsoleErrors(/ERR_INTERNET_DISCONNECTED/),
      async ({ page, stack }) => {
        await page.route(/\/build\/.*\.js$/, (route) => route.abort("internetdisconnected"));
        await page.goto("/");
        await page.waitForTimeout(250);
        const t = `no-modules-${Date.now().toString(36)}`;
        const form = page.locator("#contact form");
        await form.getByLabel("Name").fill("Ada Lovelace");
        await form.getByLabel("Email").fill(`ada-${t}@example.com`);
        await form.getByLabel("Project Title").fill(`Offline scripts ${t}`);
        await form.getByRole("button", { name: contactForm.submit }).click();
        await expect(page.locator("#contact").getByRole("status")).toContainText(toasts.success.title);
        expect(await stack.db`select 1 from contact_enquiries where project_title = ${`Offline scripts ${t}`}`).toHaveLength(1);
        // The browser posted it, as without JavaScript: the page's own draft of it is gone (decision 027).
        await page.goBack();
        await expect(form.getByLabel("Name")).toBeVisible();
        await page.waitForTimeout(300); // where the draft would come back
        await expect(form.getByLabel("Project Title")).toHaveValue("");
      },
    );
  });
});
