// What every response of the site says, and what none says (docs/decisions/024, 032): each kind of answer
// (documents, static files, text routes, JSON, redirects, refusals, Node's own 400, 417 and 431, a head
// no URL can be made of, and the local CDN's own answers, each header once) carries the security headers, and a file opened in Chromium's own viewer
// breaks no rule of its policy; no public answer carries the framework's error text or settings or the site's own details;
// Remix's route manifest answers only its own pages' queries; original photos are never served; and
// what counts as the site's own origin is the site's to say. Against the production build, over real HTTP.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { chromium } from "@playwright/test";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { securityHeaders } from "~/server/response-headers.server";
import { hasNginx, startNginx } from "../../scripts/local-stack/cdn.mjs";
import { CHROMIUM_ARGS, TEST_BROWSER, TEST_CHROMIUM_PATH } from "../../scripts/local-stack/chromium.mjs";
import { LOCAL_SECRETS } from "../../scripts/local-stack/environment.mjs";
import { ROOT } from "../../scripts/local-stack/processes.mjs";
import { startStack, type Stack } from "../../scripts/local-stack/stack.mjs";

let stack: Stack;
const REPORT_URL = "https://reports.example/csp";
// An original photo where the README tells the owner to put them (EXIF and all).
const SOURCE_FOLDER = path.join(ROOT, "public/photos/source");
const SOURCE_PHOTO = `responses-test-${process.pid}.jpg`;
const createdSourceFolder = !existsSync(SOURCE_FOLDER);

beforeAll(async () => {
  mkdirSync(SOURCE_FOLDER, { recursive: true });
  writeFileSync(path.join(SOURCE_FOLDER, SOURCE_PHOTO), "original photo with EXIF");
  // The site alone; it trusts the test's own address as a proxy, as behind a CDN on the same machine.
  stack = await startStack({ db: false, mail: false, fn: false, env: { site: { TRUST_PROXY: "loopback", CSP_REPORT_URL: REPORT_URL } } });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  rmSync(createdSourceFolder ? SOURCE_FOLDER : path.join(SOURCE_FOLDER, SOURCE_PHOTO), { recursive: true, force: true });
});

/** `repeated`: the names of the headers the answer carries more than once. */
type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string; repeated: string[] };

/** The names that occur more than once in `names` (lowercased). */
const repeatedNames = (names: string[]) => {
  const lower = names.map((name) => name.toLowerCase());
  return [...new Set(lower.filter((name, i) => lower.indexOf(name) !== i))];
};

/** A request exactly as written (no client-side normalisation of the path), to `port` (the site's by default). */
function send(method: string, target: string, headers: Record<string, string> = {}, body?: string, port = stack.ports.site) {
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, method, path: target, headers: { connection: "close", ...headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: text,
            repeated: repeatedNames(response.rawHeaders.filter((_, i) => i % 2 === 0)),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * `bytes` written as they are over a raw socket (to the site's port by default): the head of the answer.
 * The socket's end is sent with them, which a server may take for a client that left before its answer:
 * with `waitForAnswer`, it is not, and the request must end the connection itself (`Connection: close`, HTTP/1.0).
 */
function raw(bytes: string, port = stack.ports.site, { waitForAnswer = false } = {}) {
  return new Promise<{ status: number; headers: Record<string, string>; repeated: string[] }>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => (waitForAnswer ? socket.write(bytes) : socket.end(bytes)));
    let text = "";
    socket.on("data", (chunk) => (text += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const [statusLine = "", ...lines] = text.split("\r\n\r\n")[0]!.split("\r\n");
      const names = lines.map((line) => line.slice(0, line.indexOf(":")).toLowerCase());
      const headers = Object.fromEntries(lines.map((line, i) => [names[i], line.slice(line.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, repeated: repeatedNames(names) });
    });
  });
}

const home = async () => (await send("GET", "/")).body;

/** Every header of the one list (response-headers.server.ts), and an error kept nowhere. */
function expectTheHeaders(kind: string, { status, headers }: { status: number; headers: Record<string, unknown> }) {
  for (const [name, value] of Object.entries(securityHeaders({ production: true }))) {
    const sent = headers[name.toLowerCase()];
    if (name === "Content-Security-Policy")
      expect(sent, `${kind} (${status}): ${name}`).toMatch(/default-src '(none|self)'.*frame-ancestors 'none'/);
    else expect(sent, `${kind} (${status}): ${name}`).toBe(value);
  }
  expect(headers["strict-transport-security"], `${kind}: HSTS`).toMatch(/max-age=63072000/);
  if (status >= 400) expect(headers["cache-control"], `${kind} (${status}): an error is kept nowhere`).toMatch(/no-store/);
}
const OWNER = { authorization: `Bearer ${LOCAL_SECRETS.healthz}` };
const form = { "content-type": "application/x-www-form-urlencoded" };

describe("every response carries the headers", () => {
  it("each kind of answer: documents, static files, text routes, JSON, redirects, refusals, Node's own 400, 417 and 431, a missing Host, a CONNECT", async () => {
    const html = await home();
    // The island's entry, named in the page's inline layer.
    const asset = html.match(/"(\/build\/[^"]+\.js)"/)![1]!;
    const photo = html.match(/(\/photos\/[^" ,]+\.webp)/)![1]!;
    const kinds: Record<string, () => Promise<{ status: number; headers: Record<string, unknown> }>> = {
      "the home page": () => send("GET", "/"),
      "the home page, revalidated": async () => send("GET", "/", { "if-none-match": (await send("HEAD", "/")).headers.etag as string }),
      "the 404 page": () => send("GET", "/no/such/page"),
      "the router's error page (a post a page does not take)": () => send("POST", "/no-such-page", form, "a=1"),
      "a built script": () => send("GET", asset),
      "a photo": () => send("GET", photo),
      "an icon": () => send("GET", "/favicon.svg"),
      "the web manifest": () => send("GET", "/site.webmanifest"),
      "robots.txt": () => send("GET", "/robots.txt"),
      "sitemap.xml": () => send("GET", "/sitemap.xml"),
      "/healthz": () => send("GET", "/healthz"),
      "a data request": () => send("GET", "/no-such-page?_data=root"),
      "the front door's redirect": () => send("GET", "//robots.txt"),
      "the front door's 405": () => send("PUT", "/"),
      "a post to robots.txt": () => send("POST", "/robots.txt", form, "a=1"),
      "a refused route manifest": () => send("GET", "/__manifest?x=1"),
      "an original photo (not served)": () => send("GET", `/photos/source/${SOURCE_PHOTO}`),
      "a request Node cannot read (400)": () => raw("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
      "an Expect Node does not know (417)": () => raw("GET / HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nConnection: close\r\n\r\n"),
      "headers too large for Node (431)": () => raw(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(40_000)}\r\n\r\n`),
      "an HTTP/1.1 request without Host (400)": () => raw("GET / HTTP/1.1\r\nConnection: close\r\n\r\n"),
      "a Host no URL can be made of (400)": () => raw("GET / HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n"),
      "a CONNECT: the site is no tunnel (405)": () => raw("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"),
      "a range past the end of a file (416)": () => send("GET", "/favicon.ico", { range: "bytes=99999999-" }),
    };
    for (const [kind, request] of Object.entries(kinds)) {
      const answer = await request();
      const status = /\((\d+)\)$/.exec(kind)?.[1];
      if (status) expect(answer.status, kind).toBe(Number(status));
      expectTheHeaders(kind, answer);
    }
  });

  it("a head the site cannot read (Host, target) is a 400 with the headers, never a fault; any Host, any target", async () => {
    const unreadable = ["[::1", "[", "x y", "%", ":", "[zz]", "x:99999", "1.2.3.999", "a/b", "", "[::1]:65536"];
    for (const host of unreadable) {
      const answer = await raw(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(answer.status, host).toBe(400);
      expectTheHeaders(`Host: ${host}`, answer);
    }
    // The framework takes a port from X-Forwarded-Host, which the site never trusts: it is removed.
    expect((await send("GET", "/robots.txt", { "x-forwarded-host": "x:99999" })).status).toBe(200);
    // A target in absolute form is read as its path, its host in place of Host; any other form is refused.
    for (const [target, status] of [
      ["http://[::1]/robots.txt", 200],
      ["HTTP://x:8080/robots.txt?a=1", 200],
      ["http://x:99999/robots.txt", 400],
      ["http:///robots.txt", 400],
      ["*", 400],
    ] as const) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n`, undefined, { waitForAnswer: true });
      expect(answer.status, target).toBe(status);
      expectTheHeaders(target, answer);
    }
    const header = fc.string({ unit: "binary", maxLength: 24 }).map((text) => text.replace(/[\r\n]/g, ""));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          header,
          fc.constantFrom(...unreadable),
          fc.domain(),
          fc.ipV6().map((ip) => `[${ip}]`),
          fc.ipV4(),
        ),
        fc.oneof(
          fc.constant(""),
          fc.integer({ min: 0, max: 999_999 }).map((port) => `:${port}`),
        ),
        fc.constantFrom("GET /", "HEAD /robots.txt", "POST /?index", "GET //x:99999/", "GET http://[::1]/", "GET *"),
        async (host, port, line) => {
          const answer = await raw(
            `${line} HTTP/1.1\r\nHost: ${host}${port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
            undefined,
            { waitForAnswer: true },
          );
          expect(answer.status, `${line} Host: ${host}${port}`).toBeLessThan(500);
          expectTheHeaders(`${line} Host: ${host}${port}`, answer);
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it.skipIf(!hasNginx())(
    "the local CDN's own answers (nginx's 400, 405, 413, 414, 501, 502, 505) carry them too, each once; the site's pass as they are",
    async () => {
      const cdn = await startNginx({ upstream: stack.siteUrl });
      // Nothing listens on port 1: nginx answers 502 itself.
      const cut = await startNginx({ upstream: "http://127.0.0.1:1" });
      try {
        const kinds: Record<string, () => Promise<{ status: number; headers: Record<string, unknown>; repeated: string[] }>> = {
          "a request nginx cannot read (400)": () => raw("GARBAGE\r\n\r\n", cdn.port),
          "headers too large for nginx (400)": () => send("GET", "/", { "x-big": "a".repeat(40_000) }, undefined, cdn.port),
          "a body too large (413)": () => raw(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`, cdn.port),
          "a path too long (414)": () => send("GET", `/${"a".repeat(9000)}`, {}, undefined, cdn.port),
          "a transfer coding nginx does not know (501)": () =>
            raw("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: foo\r\n\r\n", cdn.port),
          "the site unreachable (502)": () => send("GET", "/", {}, undefined, cut.port),
          "a method nginx does not pass (405)": () => raw("TRACE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", cdn.port),
          "HTTP/2.0 in a request line (505)": () => raw("GET / HTTP/2.0\r\nHost: x\r\n\r\n", cdn.port),
          "an HTTP version nginx does not know (505)": () => raw("GET / HTTP/9.9\r\nHost: x\r\n\r\n", cdn.port),
          "an HTTP/1.0 request without Host (200)": () => raw("GET /robots.txt HTTP/1.0\r\n\r\n", cdn.port, { waitForAnswer: true }),
          "a Host the site could not read (200: the CDN sends its own)": () =>
            raw("GET /robots.txt HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n", cdn.port, { waitForAnswer: true }),
          "a cached file, fetched first (200)": () => send("GET", "/favicon.ico", {}, undefined, cdn.port),
          "a range past the end of a cached file (416)": () =>
            send("GET", "/favicon.ico", { range: "bytes=99999999-" }, undefined, cdn.port),
          "a precondition a cached file fails (412)": () =>
            send("GET", "/favicon.ico", { "if-unmodified-since": "Thu, 01 Jan 1970 00:00:00 GMT" }, undefined, cdn.port),
          "a path nginx keeps for itself (404)": () => send("GET", "/.nginx-error/400", {}, undefined, cdn.port),
        };
        for (const [kind, request] of Object.entries(kinds)) {
          const answer = await request();
          expect(answer.status, kind).toBe(Number(/\((\d+)\b/.exec(kind)![1]));
          expectTheHeaders(`through the CDN, ${kind}`, answer);
          expect(answer.repeated, `through the CDN, ${kind}: a header twice`).toEqual([]);
        }
        // The site's own answers keep their own headers, once each: a document its policy, an error its page.
        for (const target of ["/", "/no/such/page"]) {
          const answer = await send("GET", target, {}, undefined, cdn.port);
          expect(answer.headers["content-security-policy"], target).toBe((await send("GET", target)).headers["content-security-policy"]);
          expectTheHeaders(`through the CDN, ${target}`, answer);
          expect(answer.repeated, `through the CDN, ${target}: a header twice`).toEqual([]);
        }
      } finally {
        await cdn.stop();
        await cut.stop();
      }
    },
  );

  it.skipIf(!TEST_BROWSER)(
    "a file opened on its own in Chromium's viewer breaks no rule of its policy (sitemap.xml, robots.txt, JSON)",
    async () => {
      const browser = await chromium.launch({ executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_ARGS });
      try {
        for (const target of ["/sitemap.xml", "/robots.txt", "/healthz", "/site.webmanifest", "/favicon.svg"]) {
          const page = await browser.newPage();
          const errors: string[] = [];
          page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
          await page.goto(`${stack.siteUrl}${target}`);
          await page.waitForLoadState("load");
          // The XML viewer draws its tree (and asks for its images) once the document is parsed.
          await page.waitForTimeout(300);
          expect(errors, target).toEqual([]);
          await page.close();
        }
      } finally {
        await browser.close();
      }
    },
  );

  it("a post to a route that takes none is a plain 405 with Allow, not the framework's JSON error", async () => {
    for (const target of ["/robots.txt", "/sitemap.xml", "/healthz"]) {
      const answer = await send("POST", target, form, "a=1");
      expect(answer.status, target).toBe(405);
      expect(answer.headers.allow, target).toBe("GET, HEAD");
      expect(answer.headers["cache-control"], target).toBe("no-store");
      expect(answer.body, target).not.toMatch(/Unexpected Server Error|message/);
    }
  });

  it("documents allow inline styles by hash only, and report what the policy blocks to CSP_REPORT_URL", async () => {
    const answer = await send("GET", "/");
    const csp = answer.headers["content-security-policy"] as string;
    const styles = [...answer.body.matchAll(/<style\b[^>]*>/g)];
    expect(styles.length, "the critical CSS and the toasts' rules").toBe(2);
    expect(csp).toMatch(new RegExp(`style-src 'self'( 'sha256-[A-Za-z0-9+/]{43}='){${styles.length}};`));
    expect(csp).not.toContain("unsafe-inline");
    expect(answer.body, "no style attribute in the markup (CSP would refuse it)").not.toMatch(/<[^>]+\sstyle="/);
    expect(csp).toContain(`report-uri ${REPORT_URL}; report-to csp`);
    expect(answer.headers["reporting-endpoints"]).toBe(`csp="${REPORT_URL}"`);
  });
});

describe("nothing to learn, nothing to fill", () => {
  it("an error page carries no framework error text, settings or router state", async () => {
    for (const [method, target] of [
      ["POST", "/no-such-page"],
      ["POST", "/no-such-page?index"],
    ] as const) {
      const answer = await send(method, target, form, "a=1");
      expect(answer.status).toBe(405);
      expect(answer.body).toContain("405 Method Not Allowed");
      expect(answer.body).not.toMatch(
        /__remixContext|You made a POST|did not provide an `action`|v3_|future|routes\/\$|<script(?![^>]*application\/ld\+json)/,
      );
    }
  });

  it("/healthz tells anyone only that the site is ok; the details need the site's HEALTHZ_SECRET", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: "Bearer wrong" },
      { authorization: `Bearer ${LOCAL_SECRETS.healthz}x` },
      { authorization: LOCAL_SECRETS.healthz },
    ]) {
      const answer = await send("GET", "/healthz", headers);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body), JSON.stringify(headers)).toEqual({ status: "ok" });
    }
    const details = JSON.parse((await send("GET", "/healthz", OWNER)).body);
    expect(details).toMatchObject({
      status: "ok",
      configuration: { valid: true },
      documentsInMemory: expect.any(Number),
      forwardedVia: "direct",
    });
  });

  it("the route manifest is refused, whatever the query: no page has a client router to ask for it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constantFrom("/", "/healthz", "/robots.txt", "/x", "//", "/Healthz"), fc.webPath()), { maxLength: 3 }),
        fc.constantFrom("v1", ""),
        fc.constantFrom("GET", "HEAD"),
        async (paths, v, method) => {
          const query = new URLSearchParams([...paths.map((p) => ["p", p]), ["version", v]]).toString();
          const answer = await send(method, `/__manifest?${query}`);
          expect(answer.status, query).toBe(404);
          expect(answer.headers["cache-control"], query).toBe("no-store");
        },
      ),
      { numRuns: 60 },
    );
    expect((await send("POST", "/__manifest?p=%2F", form, "a=1")).status).toBe(404);
  });

  it("an original photo in public/photos/source is never served, however the path is spelled", async () => {
    for (const target of [
      `/photos/source/${SOURCE_PHOTO}`,
      `/photos/%73ource/${SOURCE_PHOTO}`,
      `/Photos/Source/${SOURCE_PHOTO}`,
      `/photos/x/../source/${SOURCE_PHOTO}`,
    ]) {
      let answer = await send("GET", target);
      if (answer.status === 308) answer = await send("GET", answer.headers.location!);
      expect(answer.status, target).toBe(404);
      expect(answer.body, target).not.toContain("EXIF");
    }
  });
});

describe("the site decides what its own origin is", () => {
  /** A no-JS post of the form with `headers`, from this test's address (a proxy the site trusts). */
  const post = (headers: Record<string, string>) =>
    send(
      "POST",
      "/?index",
      { ...form, ...headers },
      new URLSearchParams({ name: "Ada", email: "ada@example.com", projectTitle: "Origin" }).toString(),
    );

  it("a post from another origin is refused whatever it says its host is (Host, X-Forwarded-Host)", async () => {
    expect((await post({ origin: "https://evil.example", "x-forwarded-host": "evil.example" })).status).toBe(403);
    expect((await post({ origin: "http://evil.example", host: "evil.example" })).status).toBe(403);
    expect((await post({ origin: "https://evil.example", forwarded: "host=evil.example" })).status).toBe(403);
  });

  it.skipIf(!hasNginx())("the local CDN (nginx) sends the site its own forwarding headers, never the visitor's", async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const origin = http.createServer((request, response) => {
      seen.push(request.headers);
      response.end("ok");
    });
    await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
    const cdn = await startNginx({ upstream: `http://127.0.0.1:${(origin.address() as net.AddressInfo).port}` });
    try {
      await send(
        "GET",
        "/forwarding",
        {
          "x-forwarded-for": "198.51.100.7",
          "x-forwarded-host": "evil.example",
          "x-forwarded-proto": "https",
          forwarded: "for=198.51.100.7;host=evil.example",
          "x-real-ip": "198.51.100.7",
        },
        undefined,
        cdn.port,
      );
      expect(seen).toHaveLength(1);
      expect(seen[0]!["x-forwarded-for"]).toBe("127.0.0.1");
      expect(seen[0]!["x-real-ip"]).toBe("127.0.0.1");
      expect(seen[0]!["x-forwarded-proto"]).toBe("http");
      expect(seen[0]!["x-forwarded-host"]).toBeUndefined();
      expect(seen[0]!.forwarded).toBeUndefined();
    } finally {
      await cdn.stop();
      origin.close();
    }
  });
});
