// @vitest-environment node
import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { routeManifestVerdict, type ServerRoutes } from "./route-manifest.server";

// The shape of this site's route table: a root layout, its index, three text routes and the catch-all.
const route = (id: string, path: string | undefined, extra: object = {}) => ({
  id,
  path,
  parentId: id === "root" ? undefined : "root",
  module: {},
  ...extra,
});
const ROUTES = {
  root: route("root", ""),
  "routes/_index": route("routes/_index", undefined, { index: true }),
  "routes/healthz": route("routes/healthz", "healthz"),
  "routes/robots[.]txt": route("routes/robots[.]txt", "robots.txt"),
  "routes/$": route("routes/$", "*"),
} as unknown as ServerRoutes;

const verdict = (url: string, method = "GET") => {
  const message = new IncomingMessage(new Socket());
  message.method = method;
  message.url = url;
  return routeManifestVerdict(message, { routes: ROUTES, version: "v1" });
};

describe("the route manifest's rule", () => {
  it("passes the browser's own query for the site's routes in this build (kept, as Remix says)", () => {
    expect(verdict("/__manifest?p=%2F&version=v1")).toBe("pass");
    expect(verdict("/__manifest?p=%2F&p=%2Fhealthz&p=%2Frobots.txt&version=v1")).toBe("pass");
  });

  it("answers, kept nowhere, a path only the catch-all matches, and another build's version", () => {
    expect(verdict("/__manifest?p=%2Fno-such-page&version=v1")).toBe("pass-uncached");
    expect(verdict("/__manifest?p=%2FHealthz&version=v1"), "another spelling").toBe("pass-uncached");
    expect(verdict("/__manifest?p=%2F&version=v0")).toBe("pass-uncached");
  });

  it("refuses what the browser never sends: unsorted, repeated or relative paths, other parameters, none, other methods", () => {
    for (const url of [
      "/__manifest?p=%2Fhealthz&p=%2F&version=v1",
      "/__manifest?p=%2F&p=%2F&version=v1",
      "/__manifest?p=healthz&version=v1",
      "/__manifest?p=%2F&version=v1&x=1",
      "/__manifest?version=v1",
      "/__manifest?p=/&version=v1",
      "/__manifest",
    ])
      expect(verdict(url), url).toBe("refuse");
    expect(verdict("/__manifest?p=%2F&version=v1", "POST")).toBe("refuse");
  });

  it("leaves every other path alone", () => {
    expect(verdict("/?p=%2F")).toBe("not-a-manifest-request");
    expect(verdict("/__manifest/x")).toBe("not-a-manifest-request");
  });
});
