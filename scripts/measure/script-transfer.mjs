// What a visitor's browser transfers in scripts from the page's load through one successful Send, measured
// from outside: Chromium at 1440 px against the whole local stack, every script response's encoded body
// (as the site compresses it for Chromium's Accept-Encoding) and headers, from navigation to the success toast.
// Used by `npm run bench`; alone: node scripts/measure/script-transfer.mjs
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../local-stack/chromium.mjs";
import { startStack } from "../local-stack/stack.mjs";

/** Scripts transferred through one Send on `siteUrl`: files, bytes, and the inline script the HTML carries. */
export async function scriptTransfer(siteUrl) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const scripts = [];
    page.on("requestfinished", (request) => {
      if (request.resourceType() === "script") scripts.push(request);
    });
    await page.goto(`${siteUrl}/`, { waitUntil: "load" });
    const inlineScriptBytes = await page.evaluate(() =>
      [...document.scripts].filter((s) => !s.src && !/json/.test(s.type)).reduce((n, s) => n + new Blob([s.textContent ?? ""]).size, 0),
    );
    const form = page.locator("#contact form");
    const t = Date.now().toString(36);
    await form.getByLabel("Name").fill("Ada Lovelace");
    await form.getByLabel("Email").fill(`ada-${t}@example.com`);
    await form.getByLabel("Project Title").fill(`Transfer ${t}`);
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.waitForTimeout(1600); // a person, and the function's fill-time check
    await form.getByRole("button", { name: "Send Message" }).click();
    await page.locator("[data-tone=success]").waitFor();
    let bytes = 0;
    for (const request of scripts) {
      const sizes = await request.sizes();
      bytes += sizes.responseBodySize + sizes.responseHeadersSize;
    }
    return { files: scripts.length, bytes, inlineScriptBytes };
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const stack = await startStack({});
  try {
    const r = await scriptTransfer(stack.siteUrl);
    console.log(
      `scripts through one Send: ${r.files} files, ${(r.bytes / 1024).toFixed(1)} KB transferred; inline script ${(r.inlineScriptBytes / 1024).toFixed(1)} KB`,
    );
  } finally {
    await stack.stop();
  }
}
