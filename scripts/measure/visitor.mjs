// A visitor on a mid-range phone, side by side with the same page as plain HTML. 360 px,
// touch, CPU slowed 4× and a slow 4G network (150 ms RTT, 1.6 Mbit/s down). Each scenario runs against
// the page as served and against the same page with the site's own scripts taken out (its inline
// scripts and module preloads removed from the HTML, its /build/ scripts blocked), interleaved, 5 runs
// of each; the tables give medians. web-vitals (injected into both) reports INP and CLS; the Long
// Animation Frames API counts frames over 50 ms while the finger scrolls.
//   (a) scroll, then tap   land on /, scroll to the FAQ a screen at a time, tap the third question
//   (b) /#faq, first tap   land on /#faq from a shared link, tap the third question
//   (c) menu, Book Now     land on /, open the menu, close it, tap Book Now
//   (d) type in the form   land on /#contact, tap the name field, type a name
// Target: each INP within ×1.25 (+16 ms) of plain HTML, no frame over 50 ms while scrolling, and the
// tapped answer shown in every run.
// Then the booking form's island (decision 030), 5 runs each on an unthrottled desktop (1440 px), on the phone
// (360 px, touch, CPU ×4) with the network unthrottled, and on the phone with slow 4G too (no target):
//   intent to hydrated      from focus entering the form to `html[data-hydrated]`, by each hand (decision 026), with
//                           no reduced motion (a focused link slides the page): a tap or click on the Name
//                           field (landing on /#contact), Tab from the hero's link into the form, and a focus
//                           by script (what autofill and screen readers bring), both landing on / so the page
//                           scrolls to the field
//   Send before hydration   the form filled as autofill does and Send pressed at once: the button one frame
//                           later, the toast, the cleared form, and whether the document was reloaded
// Target: intent to hydrated at most 250 ms (desktop) and 600 ms (phone) by every hand; "Sending..." on a disabled
// button one frame after the click, the success toast, a cleared form and no reload in every run.
// Used by `npm run bench` (the "visitor" rows); alone:
//   node scripts/measure/visitor.mjs [runs] [scenarios, e.g. bd; h: intent to hydrated; s: Send before hydration]
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromium, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../local-stack/chromium.mjs";
import { ROOT } from "../local-stack/processes.mjs";
import { startStack } from "../local-stack/stack.mjs";

const WEB_VITALS = readFileSync(path.join(ROOT, "node_modules/web-vitals/dist/web-vitals.iife.js"), "utf8");
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const TAPPED = 3;

const collect = `
  window.__vitals = { cls: 0, inp: 0, longFrames: [] , scrolling: [] };
  webVitals.onCLS((m) => (window.__vitals.cls = m.value), { reportAllChanges: true });
  webVitals.onINP((m) => (window.__vitals.inp = m.value), { reportAllChanges: true, durationThreshold: 0 });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.duration > 50) window.__vitals.longFrames.push([e.startTime, e.duration]);
    }).observe({ type: "long-animation-frame", buffered: true });
  } catch {}
`;

/** The page with the site's own scripts taken out: what the same page is as plain HTML. */
async function asPlainHtml(page, siteUrl) {
  await page.route(/\/build\/.*\.js$/, (route) => route.abort());
  await page.route(
    (url) => url.origin === new URL(siteUrl).origin && url.pathname === "/",
    async (route) => {
      const response = await route.fetch();
      const html = (await response.text())
        .replace(/<script(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script>/g, "")
        .replace(/<link[^>]* data-deferred-rel="modulepreload"[^>]*>/g, "");
      await route.fulfill({ response, body: html, headers: { ...response.headers(), "content-encoding": "" } });
    },
  );
}

/** Resolves once the page stands still (a landing on an anchor scrolls there smoothly first). */
const stillness = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve) => {
        let last = scrollY;
        let still = 0;
        const check = () => {
          still = scrollY === last ? still + 1 : 0;
          last = scrollY;
          if (still >= 6) resolve();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );

const tap = async (page, selector) => {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = await page.locator(selector).boundingBox();
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
};

const SCENARIOS = {
  "(a) scroll, then tap": {
    url: "/",
    async act(page) {
      await page.waitForTimeout(1500);
      const started = await page.evaluate(() => performance.now());
      const faqTop = await page.evaluate(() => document.getElementById("faq").getBoundingClientRect().top + scrollY);
      // A finger scrolling down to the FAQ, a screen at a time.
      while ((await page.evaluate(() => scrollY)) + 200 < faqTop) {
        await page.mouse.wheel(0, 700);
        await page.waitForTimeout(250);
      }
      const ended = await page.evaluate(() => performance.now());
      await tap(page, `#faq-${TAPPED}-question`);
      return { scrolling: [started, ended] };
    },
  },
  "(b) /#faq, first tap": {
    url: "/#faq",
    async act(page) {
      await stillness(page);
      await tap(page, `#faq-${TAPPED}-question`);
      return {};
    },
  },
  "(c) menu, Book Now": {
    url: "/",
    async act(page) {
      await page.waitForTimeout(1500);
      await tap(page, "header summary");
      await page.waitForTimeout(400);
      await tap(page, "header summary");
      await page.waitForTimeout(400);
      await tap(page, "header a[href='#contact']:not(nav *)");
      return {};
    },
  },
  "(d) type in the form": {
    url: "/#contact",
    async act(page) {
      await stillness(page);
      await tap(page, "#contact form [name=name]");
      await page.keyboard.type("Ada Lovelace", { delay: 120 });
      return {};
    },
  },
};

/** One visit: the web vitals, long frames while scrolling, and the state of the tapped FAQ answer. */
export async function visit(browser, siteUrl, scenario, variant) {
  const context = await browser.newContext({ ...devices["Pixel 7"], viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  await page.addInitScript({ content: `${WEB_VITALS};(function(){${collect}})();` });
  if (variant === "plain") await asPlainHtml(page, siteUrl);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(`${siteUrl}${SCENARIOS[scenario].url}`, { waitUntil: "load" });
  const { scrolling } = await SCENARIOS[scenario].act(page);
  // Long enough for whatever loads on slow 4G and for hydration to finish.
  await page.waitForTimeout(4000);
  const result = await page.evaluate(
    ([tapped, window_]) => {
      const visible = (el) => !!el && el.checkVisibility();
      const answers = [...document.querySelectorAll("[id^=faq-][id$=-answer]")];
      const longFramesWhileScrolling = window_
        ? window.__vitals.longFrames.filter(([start]) => start >= window_[0] && start <= window_[1] + 250).length
        : 0;
      return {
        inp: window.__vitals.inp,
        cls: window.__vitals.cls,
        longFramesWhileScrolling,
        tappedOpen: visible(document.getElementById(`faq-${tapped}-answer`)),
        open: answers.filter(visible).length,
      };
    },
    [TAPPED, scrolling],
  );
  await context.close();
  return result;
}

/** Where the island's loading is measured: an unthrottled desktop, and the phone above without its slow network. */
const PROFILES = {
  "desktop 1440 px": { context: { viewport: { width: 1440, height: 900 } }, cpu: 1, targetMs: 250 },
  "phone 360 px, CPU x4": { context: { ...devices["Pixel 7"], viewport: { width: 360, height: 780 } }, cpu: 4, targetMs: 600 },
  // No target: the island's modules take a while to arrive on slow 4G alone.
  "phone, CPU x4, slow 4G": { context: { ...devices["Pixel 7"], viewport: { width: 360, height: 780 } }, cpu: 4, network: SLOW_4G },
};
const HYDRATED = "data-hydrated";

async function profiled(browser, siteUrl, profile, url, { reducedMotion = "reduce" } = {}) {
  const { context: options, cpu, network } = PROFILES[profile];
  const context = await browser.newContext({ ...options, reducedMotion });
  const page = await context.newPage();
  // When focus first enters the form, when the page marks itself hydrated, and the button one frame after a Send.
  await page.addInitScript((hydrated) => {
    const at = (window.__hydration = { focus: 0, hydrated: 0, sends: [] });
    addEventListener("focusin", (e) => at.focus || !e.target.closest?.("form") || (at.focus = performance.now()), true);
    // The init script runs before the document has its root element: watch the document.
    new MutationObserver(() => {
      if (!at.hydrated && document.documentElement?.hasAttribute(hydrated)) at.hydrated = performance.now();
    }).observe(document, { attributes: true, subtree: true, attributeFilter: [hydrated] });
    addEventListener(
      "submit",
      (e) => {
        const button = e.target.querySelector("button[type=submit]");
        const wasHydrated = document.documentElement.hasAttribute(hydrated);
        requestAnimationFrame(() => at.sends.push({ text: button.textContent, disabled: button.disabled, wasHydrated }));
      },
      true,
    );
  }, HYDRATED);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpu });
  if (network) {
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", network);
  }
  await page.goto(`${siteUrl}${url}`, { waitUntil: "load" });
  await stillness(page);
  await page.waitForTimeout(500);
  // A new document has a new time origin (a same-document history change does not).
  const timeOrigin = await page.evaluate(() => performance.timeOrigin);
  const reloaded = async () => (await page.evaluate(() => performance.timeOrigin).catch(() => 0)) !== timeOrigin;
  return { context, page, reloaded };
}

const press = (page, profile, selector) =>
  profile.startsWith("phone") ? tap(page, selector) : page.locator(selector).click({ delay: 60 });

/** Tab, as a keyboard visitor does, from the hero's link until focus is in the booking form. */
async function tabIntoForm(page) {
  await page.locator("#hero-title ~ a[href='#contact']").focus();
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => !!document.activeElement?.closest("#contact form"))) return;
  }
  throw new Error("Tab never reached the booking form");
}

/** The hands a visitor's intent comes by: where they land, and how focus enters the form. */
const HANDS = {
  pointer: { url: "/#contact", enter: (page, profile) => press(page, profile, "#contact form [name=name]") },
  "keyboard (Tab)": { url: "/", enter: (page) => tabIntoForm(page) },
  "focus by script (autofill, screen reader)": { url: "/", enter: (page) => page.locator("#contact form [name=name]").focus() },
};

/** From focus entering the form, by `hand`, to `html[data-hydrated]`, in ms; with no reduced motion, as most visitors have it. */
export async function intentToHydrated(browser, siteUrl, profile, hand) {
  const { context, page } = await profiled(browser, siteUrl, profile, HANDS[hand].url, { reducedMotion: "no-preference" });
  try {
    await HANDS[hand].enter(page, profile);
    await page.waitForSelector(`html[${HYDRATED}]`, { state: "attached", timeout: 30_000 });
    return await page.evaluate(() => Math.round(window.__hydration.hydrated - window.__hydration.focus));
  } finally {
    await context.close();
  }
}

/** The form filled as autofill does it (no keys) and Send pressed at once, before the page has hydrated. */
export async function sendBeforeHydration(browser, siteUrl, profile, run) {
  const { context, page, reloaded } = await profiled(browser, siteUrl, profile, "/#contact");
  try {
    const form = page.locator("#contact form");
    // Aimed first, so that nothing but the press itself comes between the fill and the Send.
    const button = page.locator("#contact form button[type=submit]");
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    // Autofill fills every field in one go, with input events and no keys; Send follows at once.
    const values = {
      name: "Ada Lovelace",
      email: `ada-bench-${Date.now()}-${run}@example.com`,
      projectTitle: `Bench ${Date.now()}-${run}`,
    };
    await form.evaluate((el, v) => {
      for (const [name, value] of Object.entries(v)) {
        el.elements.namedItem(name).value = value;
        el.elements.namedItem(name).dispatchEvent(new Event("input", { bubbles: true }));
      }
    }, values);
    if (profile.startsWith("phone")) await page.touchscreen.tap(at.x, at.y);
    else await page.mouse.click(at.x, at.y);
    const toast = await page
      .locator("[data-tone=success]")
      .waitFor({ timeout: 15_000 })
      .then(() => true)
      .catch(() => false);
    const [send] = await page.evaluate(() => window.__hydration.sends);
    return {
      sendingInOneFrame: !!send && send.text === "Sending..." && send.disabled,
      wasHydrated: !!send?.wasHydrated,
      toast,
      cleared:
        (await form
          .locator("[name=name]")
          .inputValue()
          .catch(() => "?")) === "",
      reloaded: await reloaded(),
    };
  } finally {
    await context.close();
  }
}

/** intent to hydrated by each hand (medians) and Send-before-hydration outcomes, per profile. */
export async function hydrationBench(siteUrl, runs = 5, only = "hs") {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results = {};
  try {
    for (const profile of Object.keys(PROFILES)) {
      const result = (results[profile] = {});
      if (only.includes("h")) {
        result.targetMs = PROFILES[profile].targetMs ?? null;
        result.intentToHydrated = {};
        for (const hand of Object.keys(HANDS)) {
          const times = [];
          for (let i = 0; i < runs; i++) times.push(await intentToHydrated(browser, siteUrl, profile, hand));
          result.intentToHydrated[hand] = { medianMs: median(times), runs: times };
        }
        const medians = Object.values(result.intentToHydrated).map((r) => r.medianMs);
        result.withinTarget = result.targetMs === null ? null : medians.every((ms) => ms <= result.targetMs);
      }
      if (only.includes("s")) {
        const sends = [];
        for (let i = 0; i < runs; i++) sends.push(await sendBeforeHydration(browser, siteUrl, profile, i));
        const count = (key) => `${sends.filter((s) => s[key]).length}/${runs}`;
        result.sendBeforeHydration = {
          sendingInOneFrame: count("sendingInOneFrame"),
          beforeHydration: `${sends.filter((s) => !s.wasHydrated).length}/${runs}`,
          successToast: count("toast"),
          formCleared: count("cleared"),
          reloads: count("reloaded"),
        };
      }
    }
  } finally {
    await browser.close();
  }
  return results;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Medians of `runs` interleaved visits of each scenario, served and as plain HTML, on the site at `siteUrl`. */
export async function visitorBench(siteUrl, runs = 5, only = "abcd") {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results = {};
  try {
    for (const scenario of Object.keys(SCENARIOS).filter((name) => only.includes(name[1]))) {
      const visits = { served: [], plain: [] };
      for (let i = 0; i < runs; i++) {
        for (const variant of ["served", "plain"]) visits[variant].push(await visit(browser, siteUrl, scenario, variant));
      }
      const summary = (list) => ({
        inpMs: Math.round(median(list.map((v) => v.inp))),
        inpRuns: list.map((v) => Math.round(v.inp)),
        cls: Number(Math.max(...list.map((v) => v.cls)).toFixed(3)),
        longFramesWhileScrolling: Math.max(...list.map((v) => v.longFramesWhileScrolling)),
        tappedOpen: `${list.filter((v) => v.tappedOpen).length}/${runs}`,
        mostOpen: Math.max(...list.map((v) => v.open)),
      });
      const served = summary(visits.served);
      const plain = summary(visits.plain);
      results[scenario] = {
        served,
        plain,
        ratio: plain.inpMs > 0 ? Number((served.inpMs / plain.inpMs).toFixed(2)) : null,
        withinTarget: served.inpMs <= plain.inpMs * 1.25 + 16,
      };
    }
  } finally {
    await browser.close();
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv[3] ?? "abcdhs";
  // The function and its database only where enquiries are sent.
  const sends = only.includes("s");
  const stack = await startStack({
    db: sends,
    mail: sends,
    fn: sends,
    env: { site: { SITE_URL: "https://studio.example" }, function: { MIN_FILL_MS: "200", RATE_LIMIT_PER_CLIENT: "1000" } },
  });
  try {
    const runs = Number(process.argv[2] ?? 5);
    if (/[hs]/.test(only)) console.table(summariseHydration(await hydrationBench(stack.siteUrl, runs, only)));
    if (!/[abcd]/.test(only)) process.exit(0);
    const results = await visitorBench(stack.siteUrl, runs, only);
    console.table(
      Object.fromEntries(
        Object.entries(results).map(([name, r]) => [
          name,
          {
            "INP served": r.served.inpMs,
            "INP plain": r.plain.inpMs,
            "runs (served | plain)": `${r.served.inpRuns.join(" ")} | ${r.plain.inpRuns.join(" ")}`,
            ratio: r.ratio,
            "within ×1.25 +16": r.withinTarget,
            "long frames scrolling (served/plain)": `${r.served.longFramesWhileScrolling}/${r.plain.longFramesWhileScrolling}`,
            "answer shown (served/plain)": `${r.served.tappedOpen} ${r.plain.tappedOpen}`,
            "CLS max": `${r.served.cls}/${r.plain.cls}`,
          },
        ]),
      ),
    );
  } finally {
    await stack.stop();
  }
}

/** One row per profile, for console.table. */
export function summariseHydration(results) {
  return Object.fromEntries(
    Object.entries(results).map(([profile, r]) => [
      profile,
      {
        ...Object.fromEntries(
          Object.entries(r.intentToHydrated ?? {}).map(([hand, { medianMs, runs }]) => [
            `${hand} to hydrated: median ms (runs)`,
            `${medianMs} (${runs.join(" ")})`,
          ]),
        ),
        "within target": r.withinTarget,
        "Send before hydration: Sending... in 1 frame": r.sendBeforeHydration?.sendingInOneFrame,
        "pressed before hydrated": r.sendBeforeHydration?.beforeHydration,
        "success toast": r.sendBeforeHydration?.successToast,
        "form cleared": r.sendBeforeHydration?.formCleared,
        reloads: r.sendBeforeHydration?.reloads,
      },
    ]),
  );
}
