import { header } from "~/content";
import { LOCAL_STUDIO } from "../../scripts/local-stack/environment.mjs";
import { expect, test } from "./fixtures";

// The layout widths a phone, tablet or desktop can give the page: every 4 px from 180 (a 360 px phone
// at 200 % zoom; decision 027) where the header is tight (a 360 px phone with a classic scrollbar lays
// out at 348 px), coarser above.
const WIDTHS = [
  ...Array.from({ length: (600 - 180) / 4 + 1 }, (_, i) => 180 + i * 4),
  ...Array.from({ length: (1440 - 620) / 20 + 1 }, (_, i) => 620 + i * 20),
];
/** 200 % zoom on a 360 x 780 phone. */
const ZOOMED_PHONE = { width: 180, height: 390 };

test.describe("layout at every width", () => {
  // The sweep sets its own widths: once is enough.
  test.skip(({ isMobile }) => !isMobile, "runs in the mobile project only");

  test("from 180 px up the studio's name breaks only between words, beside the header's buttons, every button whole on screen, and nothing scrolls sideways", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto("/");
    // The name a visitor reads (the tests' own is shorter).
    await page.locator("header a[href='#top'] span").evaluate((name, text) => (name.textContent = text), LOCAL_STUDIO.name);
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 780 });
      const seen = await page.evaluate(() => {
        const name = document.querySelector("header a[href='#top'] span")!;
        const text = name.firstChild!;
        const broken: string[] = [];
        for (const match of text.textContent!.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, match.index!);
          range.setEnd(text, match.index! + match[0].length);
          // A word on two lines has a box on each.
          if (range.getClientRects().length > 1) broken.push(match[0]);
        }
        const viewport = document.documentElement.clientWidth;
        // Book Now and the menu button where shown; the desktop's links.
        const controls = [...document.querySelectorAll<HTMLElement>("header a[href='#contact'], header summary, header nav a")]
          .filter((control) => !control.closest("details:not([open]) nav") && control.getBoundingClientRect().width > 0)
          .map((control) => ({
            label: control.textContent?.trim() || control.getAttribute("aria-label")!,
            box: control.getBoundingClientRect(),
          }));
        return {
          broken,
          under: controls.filter((c) => name.getBoundingClientRect().right > c.box.left).map((c) => c.label),
          cutOff: controls.filter((c) => c.box.left < 0 || c.box.right > viewport).map((c) => c.label),
          inHeader: name.getBoundingClientRect().height <= document.querySelector("header")!.getBoundingClientRect().height,
          overflow: document.documentElement.scrollWidth - viewport,
        };
      });
      if (seen.broken.length) problems.push(`${width} px: the name breaks inside ${seen.broken.join(", ")}`);
      if (seen.under.length) problems.push(`${width} px: the name runs under ${seen.under.join(", ")}`);
      if (seen.cutOff.length) problems.push(`${width} px: cut off by the screen's edge: ${seen.cutOff.join(", ")}`);
      if (!seen.inHeader) problems.push(`${width} px: the name is taller than the header`);
      if (seen.overflow > 0) problems.push(`${width} px: the page scrolls sideways by ${seen.overflow} px`);
    }
    expect(problems).toEqual([]);
  });
});

test.describe("at 200 % zoom on a 360 px phone (180 CSS px)", () => {
  test.skip(({ isMobile }) => !isMobile, "runs in the mobile project only");
  test.use({ viewport: ZOOMED_PHONE, deviceScaleFactor: 2 });

  test("Book Now is in the menu, which fits the screen; no text runs out of its box; focusing each field never moves the page sideways", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.locator("header").getByRole("link", { name: header.bookNow })).toBeHidden();
    await page.locator("header summary").click();
    const menu = page.locator("header details nav");
    await expect(menu.getByRole("link", { name: header.bookNow })).toBeVisible();
    const box = (await menu.boundingBox())!;
    expect(box.x, "the menu's left edge").toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, "the menu's right edge").toBeLessThanOrEqual(ZOOMED_PHONE.width);
    await menu.getByRole("link", { name: header.bookNow }).click();
    await expect(page).toHaveURL(/#contact$/);

    // No text runs out of its box (a word wider than its card): every box holds its content.
    const spilled = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("body *")]
        .filter((box) => !box.closest("[aria-hidden=true], input, textarea") && getComputedStyle(box).overflowX === "visible")
        .filter((box) => box.clientWidth > 0 && box.scrollWidth > box.clientWidth + 1)
        .map((box) => `${box.tagName} ${JSON.stringify(box.textContent!.trim().slice(0, 30))}: ${box.scrollWidth} > ${box.clientWidth} px`),
    );
    expect(spilled, "boxes whose content runs out of them").toEqual([]);

    const controls = page.locator("#contact form").locator("input:not([tabindex='-1']), textarea, button");
    for (let i = 0; i < (await controls.count()); i++) {
      await controls.nth(i).focus();
      const sideways = await page.evaluate(() => ({
        scrolled: scrollX + (visualViewport?.offsetLeft ?? 0),
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      }));
      expect(sideways, `focus on ${(await controls.nth(i).getAttribute("name")) ?? "Send"}`).toEqual({ scrolled: 0, overflow: 0 });
    }
  });
});
