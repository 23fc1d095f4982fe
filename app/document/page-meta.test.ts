import { afterEach, describe, expect, it, vi } from "vitest";
import { TEST_STUDIO } from "../../tests/support/studio";
import { pageMeta } from "./page-meta";

// What the browser bundle sees: Remix swaps a `.server` module for an empty one there (its imports are undefined).
vi.mock("./structured-data.server", () => ({ structuredData: undefined }));

const studio = TEST_STUDIO;
const ldJson = (meta: ReturnType<typeof pageMeta>) =>
  (meta.find((m) => "script:ld+json" in m) as { "script:ld+json"?: unknown } | undefined)?.["script:ld+json"];

afterEach(() => document.head.replaceChildren());

describe("the home page's structured data in the browser", () => {
  it("is the one the server rendered, so hydration renders the same script", async () => {
    const { structuredData } = await vi.importActual<typeof import("./structured-data.server")>("./structured-data.server");
    const rendered = structuredData(studio, `${studio.siteUrl}/og-image.png`);
    const script = Object.assign(document.createElement("script"), { type: "application/ld+json", textContent: JSON.stringify(rendered) });
    document.head.append(script);
    expect(ldJson(pageMeta({ studio, description: "d" }))).toEqual(rendered);
  });

  it("is left out where the page has none to read (after a client-side navigation)", () => {
    expect(ldJson(pageMeta({ studio, description: "d" }))).toBeUndefined();
  });
});
