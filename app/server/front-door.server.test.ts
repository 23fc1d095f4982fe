// @vitest-environment node
import { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { Socket } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readConfig } from "~/config.server";
import { canonicalPath, CLIENT_ADDRESS_HEADER, CROSS_SITE_HEADER, frontDoor, isSameSite, NOT_FOUND_PATH } from "./front-door.server";
import { publicFolders } from "./http-server.server";

const SITE = "https://lakeshoresound.ca";
const ORIGINS = new Set([SITE]);
const FOLDERS = new Set(["/", "/build", "/photos", "/photos/source"]);

/** An incoming request as Node's server hands it over, from `socketAddress`. */
function request(method: string, url: string, headers: Record<string, string> = {}, socketAddress = "203.0.113.7") {
  const socket = new Socket();
  Object.defineProperty(socket, "remoteAddress", { value: socketAddress });
  const message = new IncomingMessage(socket);
  message.method = method;
  message.url = url;
  message.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return message;
}
const trust = (setting?: string) => readConfig({ NODE_ENV: "development", TRUST_PROXY: setting }).config.trustProxy;
const door = (message: IncomingMessage, setting?: string) => frontDoor(message, { siteOrigins: ORIGINS, trustProxy: trust(setting) });

describe("the front door: one URL per document", () => {
  it.each([
    ["//", "/"],
    ["///", "/"],
    ["/./", "/"],
    ["/a/../", "/"],
    ["/../../", "/"],
    ["//robots.txt", "/robots.txt"],
    ["/sitemap.xml/", "/sitemap.xml"],
    ["/a//b/./c/..", "/a/b"],
  ])("redirects %s to %s, keeping the query", (path, canonical) => {
    expect(door(request("GET", `${path}?x=1`))).toEqual({ kind: "redirect", location: `${canonical}?x=1` });
  });

  it.each([
    "/photos",
    "/photos/",
    "/photos%2F",
    "/%2F",
    "/%2e",
    "/build",
    "/BUILD",
    "/bUiLd/.",
    "//photos/./source",
    "/photos/source/",
    "/%5c",
    "/\\",
    "/%0a",
    "/%e2%80%a8",
    "/photos/%ff",
    "/%c0%ae",
    "/photos/source/studio.jpg",
    "/Photos/SOURCE/studio.jpg",
    "/photos/%73ource/studio.jpg",
    "/photos%2Fsource%2Fstudio.jpg",
  ])("sends %s (a public folder, a private folder's file, or no page's path) to the 404 page, never to a redirect", (path) => {
    const message = request("GET", path);
    expect(frontDoor(message, { siteOrigins: ORIGINS, trustProxy: trust(), publicFolders: FOLDERS })).toEqual({ kind: "pass" });
    expect(message.url).toBe(NOT_FOUND_PATH);
  });

  it("any path: a redirect leads to a path that passes (no loop), and what passes is canonical or the 404 path", () => {
    const segment = fc.oneof(
      fc.constantFrom("", ".", "..", "%2e", "%2F", "%5c", "\\", "%0a", "%ff", "photos", "PHOTOS", "build", "Build", "source", "a"),
      fc.string({ maxLength: 4 }).filter((s) => !s.includes("/") && !s.includes("?") && !s.includes("#")),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), fc.boolean(), (segments, slash) => {
        const path = `/${segments.join("/")}${slash ? "/" : ""}`;
        const options = { siteOrigins: ORIGINS, trustProxy: trust(), publicFolders: FOLDERS };
        const message = request("GET", path);
        const verdict = frontDoor(message, options);
        if (verdict.kind === "redirect") {
          const next = request("GET", verdict.location);
          expect(frontDoor(next, options), `${path} → ${verdict.location}`).toEqual({ kind: "pass" });
          expect(next.url === verdict.location || next.url === NOT_FOUND_PATH).toBe(true);
        } else {
          expect(verdict.kind).toBe("pass");
          expect(message.url === path || message.url === NOT_FOUND_PATH, `${path} → ${message.url}`).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps the home page, and its plain odd spellings redirect to it, with public folders known", () => {
    expect(frontDoor(request("GET", "/"), { siteOrigins: ORIGINS, trustProxy: trust(), publicFolders: FOLDERS })).toEqual({ kind: "pass" });
    expect(frontDoor(request("GET", "//"), { siteOrigins: ORIGINS, trustProxy: trust(), publicFolders: FOLDERS })).toEqual({
      kind: "redirect",
      location: "/",
    });
    expect(publicFolders().has("/photos")).toBe(true);
  });

  it("lets canonical paths and posts through", () => {
    expect(door(request("GET", "/?utm=1"))).toEqual({ kind: "pass" });
    expect(door(request("HEAD", "/robots.txt"))).toEqual({ kind: "pass" });
    expect(door(request("POST", "//?index"))).toEqual({ kind: "pass" });
  });

  it("refuses methods the site does not serve", () => {
    for (const method of ["PUT", "DELETE", "OPTIONS", "TRACE", "PATCH", "PROPFIND"])
      expect(door(request(method, "/"))).toEqual({ kind: "method-not-allowed" });
  });

  it("any path: the canonical form is canonical, starts with one slash, and never names another host", () => {
    const segment = fc.oneof(
      fc.constantFrom("", ".", "..", "%2e", "%2F", "a", "index", "robots.txt"),
      fc.string({ maxLength: 6 }).filter((s) => !s.includes("/") && !s.includes("?")),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 12 }), (segments) => {
        const canonical = canonicalPath(`/${segments.join("/")}`);
        expect(canonical.startsWith("/")).toBe(true);
        expect(canonical.startsWith("//")).toBe(false);
        expect(canonicalPath(canonical)).toBe(canonical);
        expect(
          canonical
            .split("/")
            .slice(1)
            .every((s) => s !== "" && s !== "." && s !== "..") || canonical === "/",
        ).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

/**
 * Express and Remix's adapter as remix-serve installs them (the adapter's module, not its index, exports the
 * function): what makes the URL of a request the front door passes.
 */
const serve = createRequire(createRequire(import.meta.url).resolve("@remix-run/serve/package.json"));
const expressApp = (serve("express") as () => { request: object })();
const { createRemixRequest } = serve("@remix-run/express/dist/server.js") as {
  createRemixRequest: (req: unknown, res: unknown) => Request;
};
/** The URL the framework makes of `message` (it throws where it cannot). */
function frameworkUrl(message: IncomingMessage): string {
  const req = Object.assign(Object.setPrototypeOf(message, expressApp.request) as IncomingMessage, { originalUrl: message.url });
  return createRemixRequest(req, new ServerResponse(req)).url;
}

describe("the front door: a head the site can read", () => {
  /** A request as HTTP/1.1 hands it over (where a Host is required). */
  const http11 = (method: string, url: string, headers: Record<string, string>) => {
    const message = request(method, url, headers);
    message.httpVersionMajor = 1;
    message.httpVersionMinor = 1;
    return message;
  };

  it.each(["[::1", "[", "x y", "%", ":", "[zz]", "x:99999", "[::1]:65536", "1.2.3.999", "a/b", "a@b", "", "[::1]x"])(
    "refuses Host %j: no URL can be made of it",
    (host) => {
      for (const method of ["GET", "POST", "PUT"]) expect(door(http11(method, "/", { host }))).toEqual({ kind: "unreadable" });
    },
  );

  it("refuses an HTTP/1.1 request without Host, and a target that is not a path; takes HTTP/1.0 without Host", () => {
    expect(door(http11("GET", "/", {}))).toEqual({ kind: "unreadable" });
    for (const target of ["*", "x:99999", "example.com:443", "http:///x", "http://x:99999/"])
      expect(door(http11("GET", target, { host: "x" })), target).toEqual({ kind: "unreadable" });
    const old = request("GET", "/", {});
    old.httpVersionMajor = 1;
    old.httpVersionMinor = 0;
    expect(door(old)).toEqual({ kind: "pass" });
  });

  it("reads a target in absolute form as its path, its host in place of Host", () => {
    const message = http11("GET", "http://[::1]:8080?x=1", { host: "ignored.example" });
    expect(door(message)).toEqual({ kind: "pass" });
    expect(message.url).toBe("/?x=1");
    expect(message.headers.host).toBe("[::1]:8080");
    expect(door(http11("GET", "HTTP://x//robots.txt", { host: "y" }))).toEqual({ kind: "redirect", location: "/robots.txt" });
  });

  it("removes X-Forwarded-Host: the site never trusts it, and the framework would take a port from it", () => {
    const message = http11("GET", "/", { host: "x", "x-forwarded-host": "x:99999" });
    expect(door(message, "loopback")).toEqual({ kind: "pass" });
    expect(message.headers["x-forwarded-host"]).toBeUndefined();
  });

  it("the framework cannot make a URL of what it refuses (so the check stays needed with this version)", () => {
    expect(frameworkUrl(http11("GET", "/a?b", { host: "x:8080" }))).toBe("http://x:8080/a?b");
    expect(() => frameworkUrl(http11("GET", "/", { host: "[::1" }))).toThrow(/Invalid URL/);
    expect(() => frameworkUrl(http11("GET", "/", { host: "x", "x-forwarded-host": "x:99999" }))).toThrow(/Invalid URL/);
  });

  it("any Host and any target: refused, or the framework makes a URL of them", () => {
    const host = fc.oneof(
      fc.string({ unit: "binary", maxLength: 20 }),
      fc.domain(),
      fc.ipV4(),
      fc.ipV6().map((ip) => `[${ip}]`),
    );
    const port = fc.oneof(
      fc.constant(""),
      fc.integer({ min: 0, max: 999_999 }).map((n) => `:${n}`),
    );
    const target = fc.oneof(
      fc.webPath(),
      fc.webUrl().map((url) => url.replace(/#.*/, "")),
      fc.constantFrom("*", "//x:99999/", "/?a=[", "http://[::1", "x:1"),
    );
    fc.assert(
      fc.property(fc.constantFrom("GET", "HEAD", "POST"), host, port, target, (method, hostText, portText, url) => {
        const message = http11(method, url, { host: hostText + portText });
        const verdict = door(message);
        if (verdict.kind === "unreadable") return;
        expect(() => frameworkUrl(message), `${hostText}${portText} ${url}`).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });
});

describe("the front door: the visitor's address", () => {
  it("is the socket's, whatever X-Forwarded-For says, unless a proxy is trusted", () => {
    const direct = request("POST", "/?index", { "x-forwarded-for": "198.51.100.1" });
    door(direct);
    expect(direct.headers[CLIENT_ADDRESS_HEADER]).toBe("203.0.113.7");
    const proxied = request("POST", "/?index", { "x-forwarded-for": "198.51.100.1, 198.51.100.2" }, "127.0.0.1");
    door(proxied, "loopback");
    expect(proxied.headers[CLIENT_ADDRESS_HEADER]).toBe("198.51.100.2");
    const hops = request("POST", "/?index", { "x-forwarded-for": "198.51.100.1, 198.51.100.2" }, "10.0.0.5");
    door(hops, "2");
    expect(hops.headers[CLIENT_ADDRESS_HEADER]).toBe("198.51.100.1");
  });

  it("never takes the header from the visitor", () => {
    const forged = request("GET", "/", { [CLIENT_ADDRESS_HEADER]: "1.2.3.4", [CROSS_SITE_HEADER]: "0" });
    door(forged);
    expect(forged.headers[CLIENT_ADDRESS_HEADER]).toBe("203.0.113.7");
    expect(forged.headers[CROSS_SITE_HEADER]).toBeUndefined();
  });

  it("any X-Forwarded-For from a direct client: the address is the socket's", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 20 })), { maxLength: 8 }), (hops) => {
        const message = request("POST", "/?index", { "x-forwarded-for": hops.join(", ") });
        door(message);
        expect(message.headers[CLIENT_ADDRESS_HEADER]).toBe("203.0.113.7");
      }),
    );
  });
});

describe("the front door: posts from other sites", () => {
  const verdict = (headers: Record<string, string>) => {
    const message = request("POST", "/?index", { host: "lakeshoresound.ca", ...headers });
    door(message);
    return { crossSite: message.headers[CROSS_SITE_HEADER], origin: message.headers.origin };
  };

  it("marks another origin, a null origin and a browser's cross-site mark, and removes Origin", () => {
    expect(verdict({ origin: "https://evil.example" })).toEqual({ crossSite: "1", origin: undefined });
    expect(verdict({ origin: "null" })).toEqual({ crossSite: "1", origin: undefined });
    expect(verdict({ origin: SITE, "sec-fetch-site": "cross-site" })).toEqual({ crossSite: "1", origin: undefined });
  });

  it("passes the site's own origin, and a post without one", () => {
    expect(verdict({ origin: SITE }).crossSite).toBe("0");
    expect(verdict({}).crossSite).toBe("0");
  });

  it("compares with the site's origins, never with what the request says its host is (Host, X-Forwarded-Host)", () => {
    // Through a proxy the site trusts, from a client that chose every header it could.
    const forged = (headers: Record<string, string>) => {
      const message = request("POST", "/?index", headers, "127.0.0.1");
      door(message, "loopback");
      return message.headers[CROSS_SITE_HEADER];
    };
    expect(forged({ origin: "https://evil.example", "x-forwarded-host": "evil.example", host: "lakeshoresound.ca" })).toBe("1");
    expect(forged({ origin: "https://evil.example", host: "evil.example" })).toBe("1");
    expect(forged({ origin: "http://lakeshoresound.ca", host: "lakeshoresound.ca" }), "another scheme is another origin").toBe("1");
  });

  it("takes the configured origins (SITE_ORIGINS) as the site's own too", () => {
    const { config } = readConfig({
      NODE_ENV: "development",
      SITE_URL: SITE,
      SITE_ORIGINS: "https://www.lakeshoresound.ca/, http://localhost:3000",
    });
    expect([...config.siteOrigins]).toEqual([SITE, "https://www.lakeshoresound.ca", "http://localhost:3000"]);
    for (const origin of config.siteOrigins) expect(isSameSite(origin, "same-origin", config.siteOrigins), origin).toBe(true);
    expect(isSameSite("http://localhost:3001", undefined, config.siteOrigins)).toBe(false);
  });

  it("any Origin that is not one of the site's is cross-site, whatever the host", () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl(), fc.string()), (origin) => {
        fc.pre(origin !== SITE);
        expect(isSameSite(origin, undefined, ORIGINS)).toBe(false);
      }),
    );
  });
});
