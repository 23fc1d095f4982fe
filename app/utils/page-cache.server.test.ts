import { describe, expect, it } from "vitest";
import { createPageCache } from "./page-cache.server";

const first = { nonce: "N0nceAAAAAAAAAAAAAAAAA==", idempotencyKey: "11111111-1111-4111-8111-111111111111", renderedAt: "1795375330941" };
const second = { nonce: "N0nceBBBBBBBBBBBBBBBBB==", idempotencyKey: "22222222-2222-4222-8222-222222222222", renderedAt: "1795375339999" };
const page = (v: typeof first) =>
  `<script nonce="${v.nonce}">window.ctx={"key":"${v.idempotencyKey}","at":${v.renderedAt}}</script><input value="${v.idempotencyKey}"><input value="${v.renderedAt}">`;

describe("page cache", () => {
  it("misses until a page is stored, then serves it stamped with each request's own values", () => {
    const cache = createPageCache();
    expect(cache.get(second)).toBeUndefined();
    cache.set(page(first), first);
    expect(cache.get(second)).toBe(page(second));
    expect(cache.get(first)).toBe(page(first));
  });

  it("never serves one request's nonce or form key to another", () => {
    const cache = createPageCache();
    cache.set(page(first), first);
    const html = cache.get(second)!;
    expect(html).not.toContain(first.nonce);
    expect(html).not.toContain(first.idempotencyKey);
    expect(html).not.toContain(first.renderedAt);
  });

  it("does not store a page in which a value cannot be found", () => {
    const cache = createPageCache();
    cache.set("<p>no values here</p>", first);
    expect(cache.get(second)).toBeUndefined();
  });
});
