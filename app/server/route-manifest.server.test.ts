// @vitest-environment node
import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asksForRouteManifest, MANIFEST_PATH } from "./route-manifest.server";

const asks = (url: string, method = "GET") => {
  const message = new IncomingMessage(new Socket());
  message.method = method;
  message.url = url;
  return asksForRouteManifest(message);
};

describe("the route manifest's rule", () => {
  it("knows a request for the manifest by its path, whatever the method and query", () => {
    fc.assert(
      fc.property(fc.constantFrom("GET", "HEAD", "POST", "PUT"), fc.webQueryParameters(), (method, query) => {
        expect(asks(`${MANIFEST_PATH}?${query}`, method)).toBe(true);
      }),
    );
    expect(asks(MANIFEST_PATH)).toBe(true);
  });

  it("leaves every other path alone, a page's query naming the manifest included", () => {
    for (const url of ["/", "/?p=/__manifest", "/__manifest/x", "/x/__manifest", "/healthz"]) expect(asks(url), url).toBe(false);
  });
});
