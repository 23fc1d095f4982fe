// What remix-serve-log.server.ts relies on in remix-serve and morgan, read from the installed packages:
// an upgrade that changes any of it fails here.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { remixServeMorgan, routeAccessLog } from "./remix-serve-log.server";

const require = createRequire(import.meta.url);

describe("remix-serve's access log", () => {
  it("is morgan's named format `tiny`, set up after the server build is imported", () => {
    const cli = readFileSync(require.resolve("@remix-run/serve/dist/cli.js"), "utf8");
    const imported = cli.indexOf("await reimportServer()");
    const logged = cli.indexOf('morgan__default["default"]("tiny")');
    expect(imported).toBeGreaterThan(0);
    expect(logged).toBeGreaterThan(imported);
  });

  it("goes through the request log once routed: a line that went well as `access` says, a refusal not at all", async () => {
    const morgan = remixServeMorgan() as unknown as ((format: string) => unknown) & { tiny: unknown };
    const tiny = morgan.tiny;
    try {
      const given: string[] = [];
      expect(routeAccessLog((line) => (given.push(line), undefined), morgan as never)).toBe(true);
      const format = morgan.tiny as (tokens: unknown, request: unknown, response: unknown) => unknown;
      const request = { method: "GET", url: "/", originalUrl: "/", headers: {} };
      const response = (statusCode: number) => ({ statusCode, getHeader: () => undefined, headersSent: true, _header: true });
      expect(format(morgan, request, response(200))).toBeUndefined();
      expect(given).toEqual([expect.stringMatching(/^GET \/ 200/)]);
      expect(format(morgan, request, response(404))).toBeUndefined();
      expect(given).toHaveLength(1);
    } finally {
      morgan.tiny = tiny;
    }
  });
});
