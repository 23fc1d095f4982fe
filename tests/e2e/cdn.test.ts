/**
 * Behind a CDN (decision 012): a real shared cache (nginx proxy_cache) in front of the production
 * build. The home page is one document for everyone, so the cache serves it and the origin renders
 * it rarely; the cached copy still hydrates under its CSP and sends enquiries.
 */
import { contactForm } from "~/content";
import { hasNginx } from "../../scripts/local-stack/cdn.mjs";
import { expect, hydrated, test } from "./fixtures";

test.describe("behind a shared cache (nginx proxy_cache)", () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) > 400, "one browser size is enough for the cache");
  test.skip(!hasNginx(), "nginx is not installed (scripts/test/setup.sh installs nginx-light where apt runs as root)");

  test("300 visits to / reach the site at most twice", async ({ stack }) => {
    const cdn = await stack.startCdn();
    try {
      const bodies = new Set<string>();
      for (let batch = 0; batch < 30; batch++) {
        const responses = await Promise.all(Array.from({ length: 10 }, () => fetch(`${cdn.url}/`)));
        for (const response of responses) {
          expect(response.status).toBe(200);
          bodies.add(await response.text());
        }
      }
      expect(bodies.size, "every visitor got the same bytes").toBe(1);
      expect(cdn.originRequests()).toBeGreaterThanOrEqual(1);
      expect(cdn.originRequests()).toBeLessThanOrEqual(2);
    } finally {
      await cdn.stop();
    }
  });

  test("the cached page hydrates with no CSP violation and sends an enquiry that is stored once", async ({ page, stack }) => {
    const cdn = await stack.startCdn();
    try {
      await page.addInitScript(() => {
        (window as unknown as { violations: string[] }).violations = [];
        document.addEventListener("securitypolicyviolation", (e) =>
          (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      // The first visit fills the cache for this browser's encoding; the second is served from it.
      await page.goto(`${cdn.url}/`);
      const reachedOrigin = cdn.originRequests();
      await page.goto(`${cdn.url}/`);
      expect(cdn.originRequests(), "the second visit is served by the cache").toBe(reachedOrigin);
      await hydrated(page);
      const title = `Through the cache ${Date.now()}`;
      const form = page.locator("#contact form");
      await form.getByLabel("Name").fill("Ada Lovelace");
      await form.getByLabel("Email").fill("ada@example.com");
      await form.getByLabel("Project Title").fill(title);
      await form.getByRole("button", { name: contactForm.submit }).click();
      await expect(page.locator("[data-tone=success]")).toBeVisible();
      await expect.poll(async () => (await stack.db`select id from contact_enquiries where project_title = ${title}`).length).toBe(1);
      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    } finally {
      await cdn.stop();
    }
  });
});
