import { createHash } from "node:crypto";
import { amountsOf, contactForm, faq, money, notFound, packages, services, toasts } from "~/content";
import { answeredWith, expect, expectsConsoleErrors, hydrated, test } from "./fixtures";

/** The `'sha256-…'` CSP source of an inline script's text. */
const hashOf = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/(ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[2]!);

test.describe("security headers", () => {
  for (const path of ["/", "/no-such-page"]) {
    test(`are on the document response of ${path}`, async ({ request, stack }) => {
      const response = await request.get(path);
      const h = response.headers();
      const csp = h["content-security-policy"]!;
      expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]{43}=')+;/);
      expect(csp.match(/script-src[^;]*/)![0]).not.toMatch(/unsafe-inline|nonce-/);
      expect(csp).toContain(`connect-src 'self' ${new URL(stack.functionUrl).origin}`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(Number(h["strict-transport-security"]!.match(/max-age=(\d+)/)![1])).toBeGreaterThanOrEqual(31536000);
      expect(h["x-content-type-options"]).toBe("nosniff");
      expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(h["permissions-policy"]).toContain("camera=()");
      expect(h["cache-control"]).toBe(path === "/" ? "public, max-age=0, s-maxage=300, stale-while-revalidate=86400" : "private, no-store");
    });
  }

  test("allow every inline script by its hash, and nothing per request is in the page", async ({ request }) => {
    const [a, b] = await Promise.all([request.get("/"), request.get("/")]);
    const html = await a.text();
    expect(await b.text()).toBe(html);
    expect(b.headers()["etag"]).toBe(a.headers()["etag"]);
    expect(a.headers()["etag"]).toMatch(/^"[^"]{20,}"$/);
    expect(html).not.toMatch(/nonce=|idempotencyKey|renderedAt/);
    const csp = a.headers()["content-security-policy"]!;
    const scripts = inlineScripts(html);
    expect(scripts.length).toBeGreaterThanOrEqual(1); // the page's one inline script: the menu and the form's layer
    for (const text of scripts) expect(csp).toContain(hashOf(text));
    expect(csp.match(/script-src[^;]*/)![0].match(/'sha256-/g)).toHaveLength(new Set(scripts).size);
  });

  test("answer a matching If-None-Match with 304, and vary by encoding", async ({ request }) => {
    const first = await request.get("/");
    const etag = first.headers()["etag"]!;
    const again = await request.get("/", { headers: { "if-none-match": etag } });
    expect(again.status()).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers()["etag"]).toBe(etag);
    expect((await request.get("/", { headers: { "if-none-match": '"other"' } })).status()).toBe(200);
    expect(first.headers()["vary"]).toMatch(/Accept-Encoding/i);
  });

  test("Chromium reports no CSP violation, including while the form sends", async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { violations: string[] }).violations = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    await page.goto("/");
    await hydrated(page);
    const form = page.locator("#contact form");
    await form.getByLabel("Name").fill("Ada");
    await form.getByLabel("Email").fill("ada@example.com");
    await form.getByLabel("Project Title").fill(`CSP check ${Date.now()}`);
    await form.getByRole("button", { name: contactForm.submit }).click();
    await expect(page.locator("[data-tone=success]")).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
  });

  test(
    "no CSP violation through the whole journey: FAQ, an error toast and a success toast, each dismissed by its button",
    // The 404 page at the end: the document as a failed resource, and its path (errors.test.ts).
    expectsConsoleErrors(answeredWith(404), /non-existent route/),
    async ({ page }) => {
      await page.addInitScript(() => {
        (window as unknown as { violations: string[] }).violations = [];
        document.addEventListener("securitypolicyviolation", (e) =>
          (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
        );
      });
      const response = await page.goto("/");
      // Inline styles are allowed by hash only (decision 024): a rule written at run time would be refused.
      expect(response!.headers()["content-security-policy"]!.match(/style-src[^;]*/)![0]).toMatch(/^style-src 'self'( 'sha256-[^']+')+$/);
      await page.locator("#faq-1-question").click();
      await expect(page.getByText(faq[0]!.answer)).toBeVisible();
      await hydrated(page);
      await page.locator("#faq-2-question").click();
      await expect(page.getByText(faq[1]!.answer)).toBeVisible();
      const form = page.locator("#contact form");
      // A blank required field past the browser's own check: the site's destructive toast.
      await form.getByLabel("Name").fill("   ");
      await form.evaluate((el: HTMLFormElement) => (el.noValidate = true));
      await form.getByRole("button", { name: contactForm.submit }).click();
      const error = page.locator("[data-tone=destructive]");
      await expect(error).toContainText(toasts.missingFields.title);
      // The toast's own rules (react-hot-toast's, written in advance) make its button clickable.
      await error.getByRole("button", { name: toasts.dismiss }).click();
      await expect(error).toBeHidden();
      await form.getByLabel("Name").fill("Ada");
      await form.getByLabel("Email").fill("ada@example.com");
      await form.getByLabel("Project Title").fill(`CSP journey ${Date.now()}`);
      await form.getByRole("button", { name: contactForm.submit }).click();
      const success = page.locator("[data-tone=success]");
      await expect(success).toBeVisible();
      await success.getByRole("button", { name: toasts.dismiss }).click();
      await expect(success).toBeHidden();
      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
      await page.goto("/no-such-page");
      await expect(page.getByRole("heading", { name: notFound.title })).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    },
  );

  test("static build assets are immutable and responses are compressed", async ({ request }) => {
    const html = await (await request.get("/")).text();
    // The island's entry, named in the page's inline layer.
    const asset = html.match(/"(\/build\/[^"]+\.js)"/)![1]!;
    const response = await request.get(asset, { headers: { "accept-encoding": "gzip, br" } });
    expect(response.headers()["cache-control"]).toContain("immutable");
    const page = await request.get("/", { headers: { "accept-encoding": "gzip, br" } });
    expect(page.headers()["content-encoding"]).toMatch(/gzip|br/);
  });
});

test.describe("SEO and sharing", () => {
  test("the head has title, description, canonical, social cards, theme colour, icons and manifest", async ({ page, request, stack }) => {
    await page.goto("/");
    await expect(page).toHaveTitle(/E2E Studio/);
    const meta = (selector: string) => page.locator(selector).getAttribute("content");
    expect(await meta('meta[name="description"]')).toMatch(/recording, mixing, and mastering/i);
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${stack.siteUrl}/`);
    expect(await meta('meta[property="og:image"]')).toBe(`${stack.siteUrl}/og-image.png`);
    expect(await meta('meta[name="twitter:card"]')).toBe("summary_large_image");
    expect(await meta('meta[name="theme-color"]')).toBe("#0f0e13");
    for (const href of await page
      .locator('link[rel~="icon"], link[rel="apple-touch-icon"], link[rel="manifest"]')
      .evaluateAll((els) => els.map((el) => el.getAttribute("href")!))) {
      expect((await request.get(href)).status(), href).toBe(200);
    }
    expect((await request.get("/og-image.png")).headers()["content-type"]).toBe("image/png");
    const manifest = await (await request.get("/site.webmanifest")).json();
    expect(manifest.icons.length).toBeGreaterThan(0);
  });

  test("robots.txt and sitemap.xml point at the site; other unknown paths still 404", async ({ request, stack }) => {
    const robots = await request.get("/robots.txt");
    expect(robots.status()).toBe(200);
    expect(await robots.text()).toContain(`Sitemap: ${stack.siteUrl}/sitemap.xml`);
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.headers()["content-type"]).toContain("xml");
    expect(await sitemap.text()).toContain(`<loc>${stack.siteUrl}/</loc>`);
    expect((await request.get("/sitemap.txt")).status()).toBe(404);
    expect((await request.get("/robots.txt/more")).status()).toBe(404);
  });

  test("JSON-LD describes the studio and its FAQ, matching the content module", async ({ page }) => {
    await page.goto("/");
    const raw = await page.locator('script[type="application/ld+json"]').textContent();
    const graph = JSON.parse(raw!)["@graph"] as Record<string, unknown>[];
    // JSON-LD is loosely typed by nature: read it as JSON.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    type Json = any;
    const business = graph.find((n) => n["@type"] === "LocalBusiness") as Json;
    expect(business.name).toBe("E2E Studio");
    expect(business.email).toBe("bookings@e2e.example");
    expect(business.address.addressLocality).toBe("Etobicoke");
    expect(business.address.addressRegion).toBe("Ontario");
    expect(business.openingHoursSpecification.dayOfWeek).toHaveLength(7);
    expect(business.openingHoursSpecification.opens).toBe("00:00");
    expect(business.sameAs).toHaveLength(1);
    const amounts = [...services.flatMap((service) => amountsOf(service.price)), ...packages.map((pkg) => pkg.price)];
    expect(business.priceRange).toBe(`${money(Math.min(...amounts))} - ${money(Math.max(...amounts))}`);
    const offers = business.makesOffer as Json[];
    for (const { title, price } of services) {
      const offer = offers.find((o) => o.name === title)!;
      expect(offer.priceCurrency).toBe("CAD");
      if ("per" in price) expect([offer.price, offer.priceSpecification.unitText]).toEqual([price.amount, price.per]);
      else expect([offer.priceSpecification.minPrice, offer.priceSpecification.maxPrice]).toEqual([price.from, price.to]);
    }
    for (const pkg of packages) {
      const offer = offers.find((o) => o.name === pkg.title)!;
      expect(offer.price).toBe(pkg.price);
      expect(offer.description).toContain(pkg.savingsText);
    }
    const faqPage = graph.find((n) => n["@type"] === "FAQPage") as Json;
    expect(faqPage.mainEntity.map((q: Json) => [q.name, q.acceptedAnswer.text])).toEqual(faq.map((f) => [f.question, f.answer]));
  });
});
