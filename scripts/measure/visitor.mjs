// A visitor on a mid-range phone, as Lighthouse never is: 360 px, touch, CPU slowed 4× and a slow 4G
// network (150 ms RTT, 1.6 Mbit/s down), who lands, scrolls and taps. web-vitals (injected) reports
// LCP, CLS and INP; the Event Timing API gives the first tap's input-to-next-paint. Five runs of each
// scenario, medians printed:
//   /        land, scroll to the FAQ with the finger, tap the third question
//   /#faq    land on the anchor from a shared link, wait, tap the third question
//   /#faq, tap at once   the same, tapping as soon as the page has loaded (before hydration can finish)
// Used by `npm run bench` (the "visitor" rows); alone: `node scripts/measure/visitor.mjs [runs]`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromium, devices } from "@playwright/test";
import { ROOT } from "../platform/processes.mjs";
import { startStack } from "../platform/stack.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../test/browser.mjs";

const WEB_VITALS = readFileSync(path.join(ROOT, "node_modules/web-vitals/dist/web-vitals.iife.js"), "utf8");
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const TAPPED = 3;

const collect = `
  window.__vitals = { cls: 0, lcp: 0, inp: 0, taps: [] };
  webVitals.onCLS((m) => (window.__vitals.cls = m.value), { reportAllChanges: true });
  webVitals.onLCP((m) => (window.__vitals.lcp = m.value), { reportAllChanges: true });
  webVitals.onINP((m) => (window.__vitals.inp = m.value), { reportAllChanges: true, durationThreshold: 0 });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) window.__vitals.taps.push(e.duration);
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
`;

/** One visit: returns the web vitals and the state of the tapped FAQ answer. */
export async function visit(browser, url, { scroll, settleMs }) {
  const context = await browser.newContext({ ...devices["Pixel 7"], viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  await page.addInitScript({ content: `${WEB_VITALS};(function(){${collect}})();` });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForTimeout(settleMs);
  if (scroll) {
    // A finger scrolling down to the FAQ, a screen at a time.
    const faqTop = await page.evaluate(() => document.getElementById("faq").getBoundingClientRect().top + scrollY);
    while ((await page.evaluate(() => scrollY)) + 200 < faqTop) {
      await page.mouse.wheel(0, 700);
      await page.waitForTimeout(250);
    }
  }
  const question = page.locator(`#faq-${TAPPED}-question`);
  if (scroll) await question.scrollIntoViewIfNeeded();
  await question.tap();
  // Long enough for the modules to arrive on slow 4G and hydration to finish.
  await page.waitForTimeout(5000);
  const result = await page.evaluate((tapped) => {
    const visible = (el) => !!el && el.checkVisibility();
    const answers = [...document.querySelectorAll("[id^=faq-][id$=-answer]")];
    return {
      ...window.__vitals,
      firstTap: window.__vitals.taps[0] ?? 0,
      tappedOpen: visible(document.getElementById(`faq-${tapped}-answer`)),
      open: answers.filter(visible).length,
    };
  }, TAPPED);
  await context.close();
  return result;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Medians of `runs` visits of each scenario, on the site at `siteUrl`. */
export async function visitorBench(siteUrl, runs = 5) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results = {};
  try {
    const scenarios = [
      ["/", `${siteUrl}/`, { scroll: true, settleMs: 1500 }],
      ["/#faq", `${siteUrl}/#faq`, { scroll: false, settleMs: 1500 }],
      ["/#faq, tap at once", `${siteUrl}/#faq`, { scroll: false, settleMs: 0 }],
    ];
    for (const [name, url, options] of scenarios) {
      const visits = [];
      for (let i = 0; i < runs; i++) visits.push(await visit(browser, url, options));
      results[name] = {
        lcpMs: Math.round(median(visits.map((v) => v.lcp))),
        cls: Number(median(visits.map((v) => v.cls)).toFixed(3)),
        inpMs: Math.round(median(visits.map((v) => v.inp))),
        firstTapMs: Math.round(median(visits.map((v) => v.firstTap))),
        clsMax: Number(Math.max(...visits.map((v) => v.cls)).toFixed(3)),
        tappedOpen: `${visits.filter((v) => v.tappedOpen).length}/${runs}`,
        mostOpen: Math.max(...visits.map((v) => v.open)),
      };
    }
  } finally {
    await browser.close();
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const stack = await startStack({ db: false, mail: false, fn: false, env: { site: { SITE_URL: "https://studio.example" } } });
  try {
    console.table(await visitorBench(stack.siteUrl, Number(process.argv[2] ?? 5)));
  } finally {
    await stack.stop();
  }
}
