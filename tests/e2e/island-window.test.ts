/**
 * No input is lost or doubled at any moment of the island's loading (decision 030). On a phone profile
 * slowed 4× or 8×, the visitor starts on the form (which loads the island) and then, at a moment drawn
 * at random across the whole window from that start to the island having the form (measured first on
 * this machine, plus a margin), taps an FAQ question, the menu, Book Now, types into a field or sends
 * the form (the spec's toast, whatever the moment). A finger stays down between 40 and 400 ms, as
 * people's taps do. Each must act exactly once, whatever the moment: the answer open (one answer), the
 * menu open, the contact section reached, every character typed once, one enquiry stored.
 */
import type { Page } from "@playwright/test";
import fc from "fast-check";
import { faq, toasts } from "~/content";
import { expect, isHydrated, slowCpu, startHydration, test } from "./fixtures";

const CONTROLS = ["faq", "menu", "book-now", "field", "submit"] as const;
type Control = (typeof CONTROLS)[number];
// Narrow them to look at one case: ISLAND_WINDOW_RUNS=40 ISLAND_WINDOW_CONTROLS=faq npx playwright test island-window
// In npm test each control acts once, at a profile and a moment drawn anew on every run (so both profiles
// and the whole window are covered across runs, every control in each; a failure prints its seed to
// replay it). A slowed page keeps a core busy (slowCpu): once per control keeps this file's cost down.
const RUNS_PER_CONTROL = Number(process.env.ISLAND_WINDOW_RUNS ?? 1);
const SWEPT = (process.env.ISLAND_WINDOW_CONTROLS?.split(",") as Control[] | undefined) ?? CONTROLS;
/** The phone profiles: CPU slowed 4× (a mid-range phone) and 8×. */
const PROFILES = [4, 8] as const;

test.describe("input across the island's loading, on a slow phone", () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) > 400, "phones: the 360 px project");
  test.setTimeout(240_000);

  test(`CPU ×${PROFILES.join(" or ×")}: a tap on the FAQ, the menu or Book Now, typing and sending each act exactly once, at any moment`, async ({
    browser,
    stack,
    baseURL,
  }) => {
    let visit = 0;
    /**
     * A fresh phone tab on the page, loaded and still, then slowed: the island starts loading at t = 0 (the visitor
     * starts on the form), and the window swept is from there. The load before it is not what this test
     * is about, and a slowed page keeps a core busy (slowCpu).
     */
    const open = async (cpu: number, hash = "") => {
      const context = await browser.newContext({ viewport: { width: 360, height: 780 }, hasTouch: true, isMobile: true, baseURL });
      const page = await context.newPage();
      await page.goto(`/?visit=${cpu}-${visit++}${hash}`, { waitUntil: "load" });
      await stillness(page);
      const fullSpeed = await slowCpu(page, cpu);
      return { page, context, fullSpeed };
    };

    /** The window on this machine at a profile, measured the first time it is drawn: from the first intent to the island having the form. */
    const windows = new Map<number, number>();
    const windowAt = async (cpu: number) => {
      if (!windows.has(cpu)) {
        const calibration = await open(cpu, "#faq");
        const started = Date.now();
        await startHydration(calibration.page);
        await expect.poll(() => isHydrated(calibration.page), { timeout: 30_000, intervals: [20] }).toBe(true);
        windows.set(cpu, Date.now() - started);
        await calibration.context.close();
        test.info().annotations.push({ type: "island window", description: `CPU ×${cpu}: ${windows.get(cpu)} ms` });
      }
      return windows.get(cpu)!;
    };

    for (const control of SWEPT) {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...PROFILES),
          // Where in the window (plus a margin of a fifth), as a share of it: the window is measured per profile.
          fc.double({ min: 0, max: 1.2, noNaN: true }),
          fc.integer({ min: 40, max: 400 }),
          async (cpu, share, pressMs) => {
            const atMs = Math.round(share * (await windowAt(cpu)));
            const { page, context, fullSpeed } = await open(cpu, control === "faq" ? "#faq" : "");
            try {
              await act(page, control, atMs, pressMs, { db: stack.db, fullSpeed });
            } finally {
              await context.close();
            }
          },
        ),
        { numRuns: RUNS_PER_CONTROL, endOnFailure: true },
      );
    }
  });
});

let sent = 0;

/**
 * A finger on the middle of what `selector` shows now, for `pressMs`, then lifted (the browser makes
 * the click, if any). The point is on the screen: whatever element is there when the finger lifts gets it.
 */
async function tap(page: Page, selector: string, pressMs: number) {
  // Aim as a person does: at the element where it is on screen now (scrolled into view first if it is not).
  let point: { x: number; y: number } | null = null;
  for (let attempt = 0; attempt < 20 && !point; attempt++) {
    point = await page.evaluate((s) => {
      const element = document.querySelector(s)!;
      const box = element.getBoundingClientRect();
      // Below the fixed header, unless it is in the header.
      const top = element.closest("header") ? 0 : document.querySelector("header")!.getBoundingClientRect().bottom;
      if (box.top < top || box.bottom > innerHeight - 20) {
        element.scrollIntoView({ block: "center", behavior: "instant" });
        return null;
      }
      const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      const hit = document.elementFromPoint(at.x, at.y);
      return hit && (element.contains(hit) || hit.contains(element)) ? at : null;
    }, selector);
    if (!point) await page.waitForTimeout(50);
  }
  if (!point) throw new Error(`could not aim at ${selector}`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
  await page.waitForTimeout(pressMs);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

/** Resolves once the page stands still (a tap on a menu link scrolls smoothly). */
function stillness(page: Page) {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = scrollY;
        let still = 0;
        const started = performance.now();
        const check = () => {
          still = scrollY === last ? still + 1 : 0;
          last = scrollY;
          if (still >= 6 || performance.now() - started > 5000) resolve();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );
}

/**
 * Starts the island, does `control` `atMs` later, waits until everything has settled, gives the page its
 * full speed back, and checks the outcome.
 */
async function act(
  page: Page,
  control: Control,
  atMs: number,
  pressMs: number,
  { db, fullSpeed }: { db: import("postgres").Sql; fullSpeed: () => Promise<void> },
) {
  const title = `Window ${Date.now().toString(36)}-${sent++}`;
  if (control === "submit") {
    // Filling the form is what starts the island for this visitor: it is t = 0.
    const form = page.locator("#contact form");
    await form.getByLabel("Name").fill("Grace Hopper");
    await form.getByLabel("Email").fill(`grace-${title.replaceAll(" ", "-").toLowerCase()}@example.com`);
    await form.getByLabel("Project Title").fill(title);
  } else {
    await startHydration(page);
  }
  await page.waitForTimeout(atMs);
  const where = `${control} at ${atMs} ms, held ${pressMs} ms`;
  switch (control) {
    case "faq": {
      await tap(page, "#faq-3-question", pressMs);
      await expect.poll(() => isHydrated(page), { timeout: 30_000 }).toBe(true);
      await fullSpeed();
      await expect(page.getByText(faq[2]!.answer), where).toBeVisible();
      expect(await page.locator("#faq details[open]").count(), where).toBe(1);
      break;
    }
    case "menu": {
      await tap(page, "header summary", pressMs);
      await expect.poll(() => isHydrated(page), { timeout: 30_000 }).toBe(true);
      await fullSpeed();
      await expect(page.locator("header details"), where).toHaveAttribute("open", "");
      break;
    }
    case "book-now": {
      await tap(page, "header a[href='#contact']:not(nav *)", pressMs);
      await expect.poll(() => isHydrated(page), { timeout: 30_000 }).toBe(true);
      await fullSpeed();
      await expect(page, where).toHaveURL(/#contact$/);
      await expect
        .poll(() => page.locator("#contact h2").evaluate((el) => el.getBoundingClientRect().top), { message: where })
        .toBeLessThan(200);
      break;
    }
    case "field": {
      const field = page.locator("#contact form").getByLabel("Project Title");
      await tap(page, "#contact form [name=projectTitle]", pressMs);
      await page.keyboard.type("Debut EP", { delay: 40 });
      await expect.poll(() => isHydrated(page), { timeout: 30_000 }).toBe(true);
      await fullSpeed();
      await expect(field, where).toHaveValue("Debut EP");
      break;
    }
    case "submit": {
      await tap(page, "#contact form button[type=submit]", pressMs);
      // Sent once, by the browser, whatever the moment (decision 030): the toast, not the no-JavaScript post's notice.
      await expect(page.locator("[data-tone=success]"), where).toContainText(toasts.success.title, { timeout: 20_000 });
      await fullSpeed();
      await expect
        .poll(async () => (await db`select id from contact_enquiries where project_title = ${title}`).length, { message: where })
        .toBe(1);
      await page.waitForTimeout(300);
      expect(await db`select id from contact_enquiries where project_title = ${title}`, where).toHaveLength(1);
      break;
    }
  }
}
