// @vitest-environment node
import { describe, expect, it } from "vitest";
import { inlineScriptHashes } from "~/document/csp.server";
import { deferHydration } from "./deferred-hydration.server";
import { DEFERRED_ASYNC, DEFERRED_REL, DEFERRED_TYPES, INERT_REL } from "./inline-script-loader";

// The tail of a document as Remix 2's <Scripts> renders it (no nonce: scripts are allowed by hash).
const remixDocument = () =>
  `<html><head><script type="application/ld+json">{"@context":"https://schema.org"}</script></head><body><main>page</main>` +
  `<link rel="modulepreload" href="/build/entry.client-A.js"/><link rel="modulepreload" href="/build/_shared/chunk-B.js"/>` +
  `<script>window.__remixContext = {};</script>` +
  `<script type="module" async="">import * as route0 from "/build/root-C.js";import("/build/entry.client-A.js");</script>` +
  `</body></html>`;

describe("deferred hydration (server half)", () => {
  const html = deferHydration(remixDocument());

  it("leaves nothing for the browser to fetch or run as a module on arrival", () => {
    expect(html).not.toMatch(/<link rel="modulepreload"/);
    expect(html).not.toMatch(/<script[^>]* type="module"/);
    expect(html).toContain(`<link rel="${INERT_REL}" ${DEFERRED_REL}="modulepreload" href="/build/entry.client-A.js"/>`);
    expect(html).toContain(`<link rel="${INERT_REL}" ${DEFERRED_REL}="modulepreload" href="/build/_shared/chunk-B.js"/>`);
    expect(html).toContain(`<script type="${DEFERRED_TYPES.script}">window.__remixContext = {};</script>`);
    // A data block takes no `async` (HTML): the loader gives it back.
    expect(html).toContain(`<script type="${DEFERRED_TYPES.module}" ${DEFERRED_ASYNC}="">import * as route0`);
    expect(html).not.toMatch(/<script[^>]* async/);
  });

  it("adds the scheduler's channel, the input tracker and the loader once, at the end of the body", () => {
    const loaders = [
      ...html.matchAll(
        /<script>\(function installSchedulerChannel[\s\S]*?\(function trackInput[\s\S]*?\(function sendBeforeHydration[\s\S]*?\(function loadScriptsOnIntent/g,
      ),
    ];
    expect(loaders).toHaveLength(1);
    expect(html.endsWith("</script></body></html>")).toBe(true);
    expect(html).toContain('"pointerdown"');
  });

  it("hashes the loader and both inert scripts for the CSP (the loader runs their text), not the JSON-LD", () => {
    expect(inlineScriptHashes(html)).toHaveLength(3);
    expect(inlineScriptHashes(html).every((h) => /^'sha256-[A-Za-z0-9+/]{43}='$/.test(h))).toBe(true);
  });

  it("keeps the rest of the document as it was", () => {
    expect(html).toContain('<script type="application/ld+json">');
    expect(html).toContain("<main>page</main>");
  });

  it("leaves a document it does not recognise untouched", () => {
    const noBootstrap = "<html><body><p>static</p></body></html>";
    expect(deferHydration(noBootstrap)).toBe(noBootstrap);
    const twoBootstraps = remixDocument().replace("</body>", '<script type="module">x</script></body>');
    expect(deferHydration(twoBootstraps)).toBe(twoBootstraps);
  });
});
