// @vitest-environment node
import { describe, expect, it } from "vitest";
import { withoutScripts } from "./without-scripts.server";

describe("a document without scripts", () => {
  it("drops every script and module preload, and keeps data blocks and everything else", () => {
    const html =
      `<head><link rel="modulepreload" href="/build/a.js"/><link rel="icon" href="/favicon.svg"/></head>` +
      `<body><h1>405</h1><script>window.__remixContext = {"future":{"v3_fetcherPersist":true}};</script>` +
      `<script type="module" async="">import "/build/entry.js";</script><script src="/x.js"></script>` +
      `<script type="application/ld+json">{"@type":"Organization"}</script></body>`;
    expect(withoutScripts(html)).toBe(
      `<head><link rel="icon" href="/favicon.svg"/></head><body><h1>405</h1><script type="application/ld+json">{"@type":"Organization"}</script></body>`,
    );
  });
});
