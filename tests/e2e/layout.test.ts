import { LOCAL_STUDIO } from "../../scripts/local-stack/environment.mjs";
import { expect, test } from "./fixtures";

// The layout widths a phone, tablet or desktop can give the page: every 4 px where the header
// is tight (a 360 px phone with a classic scrollbar lays out at 348 px), coarser above.
const WIDTHS = [
  ...Array.from({ length: (600 - 320) / 4 + 1 }, (_, i) => 320 + i * 4),
  ...Array.from({ length: (1440 - 620) / 20 + 1 }, (_, i) => 620 + i * 20),
];

test.describe("layout at every width", () => {
  // The sweep sets its own widths: once is enough.
  test.skip(({ isMobile }) => !isMobile, "runs in the mobile project only");

  test("from 320 px up the studio's name breaks only between words, beside Book Now, and nothing scrolls sideways", async ({ page }) => {
    test.setTimeout(90_000);
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
        const bookNow = [...document.querySelectorAll("header a[href='#contact']")].find((a) => a.getBoundingClientRect().width > 0)!;
        return {
          broken,
          overlap: name.getBoundingClientRect().right > bookNow.getBoundingClientRect().left,
          inHeader: name.getBoundingClientRect().height <= document.querySelector("header")!.getBoundingClientRect().height,
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      });
      if (seen.broken.length) problems.push(`${width} px: the name breaks inside ${seen.broken.join(", ")}`);
      if (seen.overlap) problems.push(`${width} px: the name runs under Book Now`);
      if (!seen.inHeader) problems.push(`${width} px: the name is taller than the header`);
      if (seen.overflow > 0) problems.push(`${width} px: the page scrolls sideways by ${seen.overflow} px`);
    }
    expect(problems).toEqual([]);
  });
});
