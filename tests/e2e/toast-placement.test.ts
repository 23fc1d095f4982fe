/**
 * The spec's toasts never stand between the visitor and the booking form (app/toasts/placement.ts):
 * placed where they cover none of its fields, and a tap on a field that scrolled under one still
 * reaches the field. Runs at 360 px (mobile) and 1440 px (desktop), and at 200 % zoom on a phone
 * (180 CSS px), where the form fills the screen.
 */
import type { Page } from "@playwright/test";
import { contactForm, toasts } from "~/content";
import { answeredWith, expect, expectsConsoleErrors, hydrated, test } from "./fixtures";

const form = (page: Page) => page.locator("#contact form");
const toast = (page: Page) => page.locator("[data-tone=success]");

async function send(page: Page) {
  await page.goto("/");
  await hydrated(page);
  const t = Date.now().toString(36);
  await form(page).getByLabel("Name").fill("Grace Hopper");
  await form(page).getByLabel("Email").fill(`grace-${t}@example.com`);
  await form(page).getByLabel("Project Title").fill(`Toast ${t}`);
  await page.waitForTimeout(250); // people take longer than MIN_FILL_MS
  await form(page).getByRole("button", { name: contactForm.submit }).click();
  await expect(toast(page)).toContainText(toasts.success.title);
  await expect(toast(page)).toContainText(toasts.success.text);
  await expect(form(page).getByLabel("Name")).toHaveValue("");
}

/** Whether the form's Send is whole on screen, below the header: the visitor's next step, in sight. */
async function sendInSight(page: Page) {
  return page.evaluate(() => {
    const send = document.querySelector("#contact form button[type=submit]")!.getBoundingClientRect();
    const header = document.querySelector("header")!.getBoundingClientRect();
    return send.top >= header.bottom && send.bottom <= innerHeight;
  });
}

/** The fields on screen whose box the toast overlaps, and those where a tap at the centre lands on it. */
function coveredFields(page: Page, tone: "success" | "destructive" = "success") {
  return page.evaluate((tone) => {
    const shown = document.querySelector(`[data-tone=${tone}]`)!.getBoundingClientRect();
    const covered: string[] = [];
    const unreachable: string[] = [];
    for (const field of document.querySelectorAll<HTMLInputElement>("#contact form input, #contact form textarea, #contact form button")) {
      const box = field.getBoundingClientRect();
      if (field.closest("[aria-hidden=true]") || box.bottom < 0 || box.top > innerHeight) continue; // the honeypot; off screen
      const name = field.name || field.textContent!;
      if (box.left < shown.right && box.right > shown.left && box.top < shown.bottom && box.bottom > shown.top) covered.push(name);
      const x = box.left + box.width / 2;
      const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
      if (document.elementFromPoint(x, y)?.closest("[data-tone]")) unreachable.push(name);
    }
    return { covered, unreachable };
  }, tone);
}

test.describe("the success toast and the form", () => {
  test("the toast shows where it covers none of the form's fields; every field on screen takes a tap", async ({ page }) => {
    await send(page);
    // Wait for the toast's entrance to end, where it stays.
    await page.waitForTimeout(500);
    expect(await coveredFields(page)).toEqual({ covered: [], unreachable: [] });
  });

  test("a field scrolled under the toast still takes the tap, and the toast goes", async ({ page, isMobile }) => {
    await send(page);
    await page.waitForTimeout(500);
    const name = form(page).getByLabel("Name");
    // Scroll the name field to where the toast is.
    const [toastBox, nameBox] = [(await toast(page).boundingBox())!, (await name.boundingBox())!];
    await page.evaluate(
      (by) => window.scrollBy({ top: by, behavior: "instant" }),
      nameBox.y - toastBox.y - toastBox.height / 2 + nameBox.height / 2,
    );
    const under = (await name.boundingBox())!;
    const [x, y] = [under.x + under.width / 4, under.y + under.height / 2];
    const box = (await toast(page).boundingBox())!;
    expect(y > box.y && y < box.y + box.height, "the field is under the toast").toBe(true);
    if (isMobile) await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
    await expect(name).toBeFocused();
    await expect(toast(page)).toHaveCount(0);
  });
});

test.describe("the toasts at 200 % zoom on a phone (180 CSS px)", () => {
  test.skip(({ isMobile }) => !isMobile, "a phone: the mobile project");
  test.use({ viewport: { width: 180, height: 390 }, deviceScaleFactor: 2 });

  // The form fills the screen: the toast goes to the bottom and the page brings Send to just above it.
  test(
    "covers neither Send nor any field on screen, and every one takes a tap",
    expectsConsoleErrors(answeredWith(500), /Error sending contact message: FunctionsHttpError/),
    async ({ page }) => {
      // The function fails: the spec's failure toast, with every value kept.
      await page.route("**/functions/v1/send-contact-email", (route) =>
        route.request().method() === "POST" ? route.fulfill({ status: 500, json: { status: "error" } }) : route.continue(),
      );
      await page.goto("/");
      await hydrated(page);
      await form(page).getByLabel("Name").fill("Grace Hopper");
      await form(page).getByLabel("Email").fill("grace@example.com");
      await form(page).getByLabel("Project Title").fill("Zoomed");
      await page.waitForTimeout(250); // people take longer than MIN_FILL_MS
      const send = form(page).getByRole("button", { name: contactForm.submit });
      await send.click();
      const shown = page.locator("[data-tone=destructive]");
      await expect(shown).toContainText(toasts.failure.title);
      await page.waitForTimeout(500); // the toast's entrance
      await expect.poll(() => sendInSight(page), "Send whole on screen, below the header").toBe(true);
      await page.screenshot({ path: "artifacts/screenshots/failure-toast-180.png" });
      expect(await coveredFields(page, "destructive")).toEqual({ covered: [], unreachable: [] });
      await expect(form(page).getByLabel("Project Title")).toHaveValue("Zoomed");
      // Send again, and it fails again: the new toast replaces the old one (two stacked at the bottom
      // would lift the older over the fields).
      await send.click();
      await page.waitForTimeout(1500); // the old toast's exit, the new one's entrance
      await expect(shown).toHaveCount(1);
      await expect.poll(() => sendInSight(page), "Send whole on screen, below the header").toBe(true);
      expect(await coveredFields(page, "destructive")).toEqual({ covered: [], unreachable: [] });
    },
  );

  test("the success toast covers no field on screen either, and Send stays in sight", async ({ page }) => {
    await send(page);
    await page.waitForTimeout(500); // the toast's entrance
    await expect.poll(() => sendInSight(page), "Send whole on screen, below the header").toBe(true);
    expect(await coveredFields(page)).toEqual({ covered: [], unreachable: [] });
  });

  // The missing-field toast stays until dismissed: the field it names, and any other the visitor goes
  // to, steps clear of it, by every hand (placement.ts, stepAside).
  for (const hand of ["focus by script", "keyboard", "tap"] as const) {
    test(`the field the visitor moves to steps clear of the toast (${hand})`, async ({ page }) => {
      await page.goto("/");
      await hydrated(page);
      await form(page).getByLabel("Name").fill("Grace Hopper");
      await form(page).getByLabel("Email").fill("grace@example.com");
      const title = form(page).getByLabel("Project Title");
      await title.fill("   ");
      await form(page).getByRole("button", { name: contactForm.submit }).click();
      const shown = page.locator("[data-tone=destructive]");
      await expect(shown).toContainText(toasts.missingFields.title);
      await page.waitForTimeout(500); // the toast's entrance, and the page brought to Send
      if (hand === "focus by script") await title.focus();
      else if (hand === "keyboard") {
        await form(page).getByLabel("Project Details").focus();
        await page.keyboard.press("Shift+Tab");
      } else {
        // The field scrolled to where the toast is, then tapped through it.
        const [toastBox, box] = [(await shown.boundingBox())!, (await title.boundingBox())!];
        await page.evaluate(
          (by) => window.scrollBy({ top: by, behavior: "instant" }),
          box.y - toastBox.y - toastBox.height / 2 + box.height / 2,
        );
        const under = (await title.boundingBox())!;
        await page.touchscreen.tap(under.x + under.width / 4, under.y + under.height / 2);
      }
      await expect(title).toBeFocused();
      const clear = async () => {
        const [t, f] = [(await shown.boundingBox())!, (await title.boundingBox())!];
        return f.y + f.height <= t.y || f.y >= t.y + t.height;
      };
      await expect.poll(clear, "the focused field clear of the toast").toBe(true);
      await page.screenshot({ path: `artifacts/screenshots/missing-toast-180-${hand.replace(/ /g, "-")}.png` });
      await expect(shown).toHaveCount(1);
    });
  }
});
