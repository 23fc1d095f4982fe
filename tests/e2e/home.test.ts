import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import {
  contactSection,
  equipment,
  equipmentSection,
  faq,
  faqSection,
  gallery,
  header,
  hero,
  navigation,
  packages,
  services,
} from "~/content";
import { expect, hydrated, test } from "./fixtures";

const isMobile = (page: Page) => (page.viewportSize()?.width ?? 0) < 800;

/** The visible navigation: the header links on desktop, the folded menu on phones. */
async function openNavigation(page: Page) {
  if (isMobile(page)) {
    await page.getByLabel("Menu").click();
    return page.locator("header details nav");
  }
  return page.locator("header nav").first();
}

test.describe("home page", () => {
  test("shows every text of the spec", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const nav = await openNavigation(page);
    for (const item of navigation) await expect(nav.getByRole("link", { name: item.label, exact: true })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("banner").getByRole("link", { name: "Book Now" })).toBeVisible();

    const heroSection = page.locator("section").first();
    await expect(heroSection).toContainText(hero.tagline);
    await expect(heroSection.getByRole("link", { name: hero.cta })).toBeVisible();

    const servicesSection = page.locator("#services");
    for (const service of services) {
      const card = servicesSection.getByRole("listitem").filter({ has: page.getByRole("heading", { name: service.title, exact: true }) });
      await expect(card).toBeVisible();
      await expect(card).toContainText(service.priceText);
      for (const feature of service.features) await expect(card.getByText(feature, { exact: true })).toBeVisible();
    }
    for (const pkg of packages) {
      const card = servicesSection.getByRole("listitem").filter({ has: page.getByRole("heading", { name: pkg.title }) });
      await expect(card).toContainText(pkg.priceText);
      await expect(card).toContainText(pkg.savingsText);
      await expect(card).toContainText(pkg.description);
    }

    const equipmentSectionEl = page.locator("#equipment");
    for (const group of equipment) {
      await expect(equipmentSectionEl.getByRole("heading", { name: group.category })).toBeVisible();
      for (const item of group.items) await expect(equipmentSectionEl.getByText(item, { exact: true })).toBeVisible();
    }
    await expect(equipmentSectionEl.getByText(equipmentSection.badge)).toBeVisible();

    for (const photo of gallery) {
      const img = page.getByRole("img", { name: photo.alt });
      await img.scrollIntoViewIfNeeded();
      await expect(img).toBeVisible();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    }

    const contact = page.locator("#contact");
    await expect(contact.getByRole("heading", { name: contactSection.heading })).toBeVisible();
    await expect(contact.getByText(contactSection.subtitle)).toBeVisible();
    await expect(contact.getByRole("heading", { name: contactSection.formCard.title })).toBeVisible();
    await expect(contact.getByText(contactSection.formCard.description)).toBeVisible();
    await expect(contact.getByRole("heading", { name: contactSection.touchCard.title })).toBeVisible();
    await expect(contact.getByRole("link", { name: "bookings@e2e.example" })).toHaveAttribute("href", "mailto:bookings@e2e.example");
    await expect(contact.locator("address")).toContainText("Etobicoke, Ontario");
    const social = contact.getByRole("link", { name: /opens in a new tab/ });
    await expect(social).toHaveAttribute("target", "_blank");
    await expect(social).toHaveAttribute("rel", /noopener/);
    await expect(contact.getByRole("heading", { name: contactSection.hoursCard.title })).toBeVisible();
    await expect(contact.getByText(contactSection.hoursCard.hours)).toBeVisible();
    await expect(contact.getByText(contactSection.hoursCard.note)).toBeVisible();

    const faqEl = page.locator("#faq");
    await expect(faqEl.getByRole("heading", { name: faqSection.heading })).toBeVisible();
    for (const item of faq) await expect(faqEl.getByRole("heading", { name: item.question, level: 3 })).toBeVisible();
  });

  test("places the contact section before the FAQ", async ({ page }) => {
    await page.goto("/");
    const ids = await page.locator("main > section[id]").evaluateAll((els) => els.map((el) => el.id));
    expect(ids).toEqual(["services", "equipment", "contact", "faq"]);
  });

  test("every link to a section (the menu's, Book Now, the hero's) brings its heading into view below the fixed header", async ({
    page,
  }) => {
    // One page for all of them (each page load costs the suite CPU). Each link starts where its heading
    // is not in place, and the address changes at each step.
    await page.goto("/");
    await hydrated(page);
    const headerBottom = await page.getByRole("banner").evaluate((el) => el.getBoundingClientRect().bottom);
    const inPlace = (href: string) =>
      page
        .locator(`${href} h2`)
        .first()
        .evaluate((el, top) => {
          const box = el.getBoundingClientRect();
          return box.top >= top - 1 && box.bottom <= innerHeight;
        }, headerBottom);
    const [services, ...rest] = navigation;
    const bookNow = { label: header.bookNow, href: "#contact" };
    const heroCta = { label: hero.cta, href: "#contact" };
    for (const item of [bookNow, services!, heroCta, ...rest]) {
      await test.step(item.label, async () => {
        await page.evaluate(() => window.scrollTo(0, 0));
        if (await inPlace(item.href)) await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        expect(await inPlace(item.href), `${item.href}'s heading, before following ${item.label}`).toBe(false);
        const link =
          item === heroCta
            ? page.getByRole("main").getByRole("link", { name: hero.cta })
            : item === bookNow
              ? page.getByRole("banner").getByRole("link", { name: header.bookNow })
              : (await openNavigation(page)).getByRole("link", { name: item.label, exact: true });
        await link.click();
        await expect.poll(() => inPlace(item.href), `${item.label}: ${item.href}'s heading below the header`).toBe(true);
        expect(page.url()).toMatch(new RegExp(`${item.href}$`));
        const fromMenu = item !== bookNow && item !== heroCta;
        if (isMobile(page) && fromMenu) await expect(page.locator("header details")).not.toHaveAttribute("open");
      });
    }
  });

  test("a landing on /#faq is in place at once: nothing slides under the first tap", async ({ page }) => {
    await page.goto("/#faq");
    const at = await page.evaluate(() => window.scrollY);
    expect(at).toBeGreaterThan(500);
    await page.waitForTimeout(400);
    expect(await page.evaluate(() => window.scrollY)).toBe(at);
    const top = await page.locator("#faq").evaluate((el) => el.getBoundingClientRect().top);
    const headerBottom = await page.getByRole("banner").evaluate((el) => el.getBoundingClientRect().bottom);
    expect(top).toBeGreaterThanOrEqual(headerBottom - 1);
  });

  test("a jump the visitor asks for scrolls smoothly, and instantly for visitors who prefer reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.goto("/");
    const behaviour = () => page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior);
    expect(await behaviour()).toBe("auto");
    await page.getByRole("banner").getByRole("link", { name: "Book Now" }).focus();
    expect(await behaviour()).toBe("smooth");
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await behaviour()).toBe("auto");
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("auto");
    await page.getByRole("banner").getByRole("link", { name: "Book Now" }).click();
    // No animation: the section is in place at once, just below the header.
    const top = await page.locator("#contact").evaluate((el) => el.getBoundingClientRect().top);
    const headerBottom = await page.getByRole("banner").evaluate((el) => el.getBoundingClientRect().bottom);
    expect(top).toBeGreaterThanOrEqual(headerBottom - 1);
    expect(top).toBeLessThan(headerBottom + 40);
  });

  test("FAQ: one item open at a time, the open one closes again, all by keyboard too", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const faqEl = page.locator("#faq");
    // Each question is the summary of a native `<details name="faq">` (decision 011).
    const trigger = (i: number) => faqEl.locator(`#faq-${i + 1}-question`);
    const answer = (i: number) => faqEl.getByText(faq[i]!.answer);
    const openCount = () => faqEl.locator("details[open]").count();

    expect(await openCount()).toBe(0);
    await trigger(0).click();
    await expect(answer(0)).toBeVisible();
    await expect(faqEl.locator("details").first()).toHaveAttribute("open", "");
    await trigger(1).click();
    await expect(answer(1)).toBeVisible();
    await expect(answer(0)).toBeHidden();
    expect(await openCount()).toBe(1);
    await trigger(1).click();
    await expect(answer(1)).toBeHidden();
    expect(await openCount()).toBe(0);

    // Keyboard: Enter and Space toggle, Tab moves to the next question.
    await trigger(2).focus();
    await page.keyboard.press("Enter");
    await expect(answer(2)).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(trigger(3)).toBeFocused();
    await page.keyboard.press("Space");
    await expect(answer(3)).toBeVisible();
    await expect(answer(2)).toBeHidden();
    await page.keyboard.press("Enter");
    await expect(answer(3)).toBeHidden();
  });

  test("has no WCAG 2.2 AA violations (axe)", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);
    // With an FAQ answer and the phone menu open, too.
    await page.locator("#faq summary").first().click();
    if (isMobile(page)) await page.getByLabel("Menu").click();
    const open = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(open.violations.map((v) => v.id)).toEqual([]);
  });
});
