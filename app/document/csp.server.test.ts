// @vitest-environment node
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, inlineScriptHashes, inlineStyleHashes } from "./csp.server";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("CSP by hash", () => {
  it("hashes the exact text of each inline script, once, and skips external scripts and JSON-LD", () => {
    const html =
      `<script>a()</script><script type="module" async="">import "/x.js";</script><script src="/y.js"></script>` +
      `<script type="application/ld+json">{"a":1}</script><script>a()</script>`;
    expect(inlineScriptHashes(html)).toEqual([sha("a()"), sha('import "/x.js";')]);
  });

  it("allows scripts from the site and the hashed inline ones only, and calls only the site and Supabase", () => {
    const csp = contentSecurityPolicy({ scriptHashes: [sha("a()")], supabaseUrl: "https://ref.supabase.co/" });
    expect(csp).toContain(`script-src 'self' ${sha("a()")};`);
    expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|nonce-)/);
    expect(csp).toContain("connect-src 'self' https://ref.supabase.co;");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it("hashes the exact text of each inline stylesheet, and allows styles from the site and those hashes only", () => {
    const html = `<style id="critical-css">:root{--a:1}</style><style id="_goober">@keyframes go1{}</style><style>:root{--a:1}</style>`;
    const styleHashes = inlineStyleHashes(html);
    expect(styleHashes).toEqual([sha(":root{--a:1}"), sha("@keyframes go1{}")]);
    const csp = contentSecurityPolicy({ scriptHashes: [], styleHashes, supabaseUrl: "https://ref.supabase.co" });
    expect(csp).toContain(`style-src 'self' ${styleHashes.join(" ")};`);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-hashes/);
  });

  it("reports what it blocks to CSP_REPORT_URL when one is set, and nowhere otherwise", () => {
    const reporting = contentSecurityPolicy({
      scriptHashes: [],
      supabaseUrl: "https://ref.supabase.co",
      reportUrl: "https://reports.example/csp",
    });
    expect(reporting).toMatch(/; report-uri https:\/\/reports\.example\/csp; report-to csp$/);
    expect(contentSecurityPolicy({ scriptHashes: [], supabaseUrl: "https://ref.supabase.co" })).not.toMatch(/report-/);
  });

  it("names only directives that Chromium, Firefox and WebKit all recognise (WebKit logs an error for any other)", () => {
    const csp = contentSecurityPolicy({ scriptHashes: [], supabaseUrl: "https://ref.supabase.co" });
    const directives = csp.split(";").map((d) => d.trim().split(" ")[0]);
    // CSP Level 2 plus frame-ancestors and base-uri: what WebKitGTK 2.50 accepts without a console error.
    const everywhere = [
      "default-src",
      "script-src",
      "style-src",
      "img-src",
      "font-src",
      "connect-src",
      "object-src",
      "base-uri",
      "form-action",
      "frame-ancestors",
    ];
    expect(directives.filter((d) => !everywhere.includes(d!))).toEqual([]);
    expect(directives).not.toContain("manifest-src");
  });

  it("opens the live-reload socket of `remix dev` only under npm run dev", () => {
    const served = contentSecurityPolicy({ scriptHashes: [], supabaseUrl: "https://ref.supabase.co" });
    const dev = contentSecurityPolicy({ scriptHashes: [], supabaseUrl: "http://127.0.0.1:54321", liveReload: true });
    expect(served).not.toContain("ws:");
    expect(dev).toContain("connect-src 'self' http://127.0.0.1:54321 ws://localhost:* ws://127.0.0.1:*;");
  });
});
