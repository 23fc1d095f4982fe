// The site's server under what anonymous requests choose: paths, headers that claim an address, slow
// clients. Against the local stack (scripts/local-stack/stack.mjs: the production build, the function,
// PostgreSQL), over real HTTP.
import http from "node:http";
import net from "node:net";
import fc from "fast-check";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyDeployment } from "../../scripts/deploy/verify.mjs";
import { LOCAL_SECRETS } from "../../scripts/local-stack/environment.mjs";
import { startStack, type Stack } from "../../scripts/local-stack/stack.mjs";

let stack: Stack;
let db: postgres.Sql;
const siteEnv = { SERVER_HEADERS_TIMEOUT_MS: "1000", SERVER_REQUEST_TIMEOUT_MS: "2000" };

beforeAll(async () => {
  stack = await startStack({ mail: "in-process", env: { site: siteEnv, function: { MIN_FILL_MS: "0" } } });
  db = postgres(stack.db!.url, { max: 1, onnotice: () => {} });
}, 120_000);
afterAll(async () => {
  await db?.end();
  await stack?.stop();
});

/** A raw GET of `target`, exactly as written (no client-side normalisation of the path). */
function get(port: number, target: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; location?: string; body: string }>((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, path: target, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, location: response.headers.location, body }));
      },
    );
    request.on("error", reject);
    request.end();
  });
}
/** The owner's view of /healthz (the local stack's HEALTHZ_SECRET). */
const OWNER = { authorization: `Bearer ${LOCAL_SECRETS.healthz}` };
const health = async () => JSON.parse((await get(stack.ports.site, "/healthz", OWNER)).body);

describe("paths a request chooses", () => {
  it("odd spellings of the home page redirect to it (308), and no path adds a document to memory or answers 5xx", async () => {
    expect((await get(stack.ports.site, "/")).status).toBe(200);
    expect((await health()).documentsInMemory).toBe(1);
    for (const spelling of ["//", "///", "/./", "/a/..", "//?x=1"]) {
      const answer = await get(stack.ports.site, spelling);
      expect(answer.status, spelling).toBe(308);
      expect(answer.location?.startsWith("/") && !answer.location.startsWith("//"), answer.location).toBe(true);
    }
    const segment = fc.oneof(
      fc.constantFrom(
        "",
        ".",
        "..",
        "%2e",
        "%2E%2e",
        "%2f",
        "%2F",
        "%00",
        "%ff",
        "index",
        "_index",
        "robots.txt",
        "build",
        "%252e",
        "?",
        "??x",
        "#",
      ),
      fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@%-]{0,12}$/),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { maxLength: 8 }),
        fc.constantFrom("", "?", "?utm=1", "?index", "?_data=root"),
        async (segments, query) => {
          const answer = await get(stack.ports.site, `/${segments.join("/")}${query}`);
          expect(answer.status, `/${segments.join("/")}${query}`).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
    expect((await health()).documentsInMemory, "one document, whatever the paths").toBe(1);
  });

  it("methods the site does not serve get 405 before any page is rendered", async () => {
    for (const method of ["PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"]) {
      const status = await new Promise<number>((resolve, reject) => {
        http
          .request({ host: "127.0.0.1", port: stack.ports.site, path: "/", method }, (r) => (r.resume(), resolve(r.statusCode!)))
          .on("error", reject)
          .end();
      });
      expect(status, method).toBe(405);
    }
  });
});

describe("the visitor's address at the no-JavaScript path", () => {
  /** A no-JS post of the form, as a browser (or a script) sends it straight to the site. */
  async function post(title: string, headers: Record<string, string> = {}) {
    const body = new URLSearchParams({
      name: "Ada",
      email: `ada-${title.replaceAll(" ", "-").toLowerCase()}@example.com`,
      projectTitle: title,
      website: "",
    }).toString();
    const response = await fetch(`${stack.siteUrl}/?index`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body,
      redirect: "manual",
    });
    expect(
      response.status,
      await response
        .clone()
        .text()
        .then((t) => t.slice(0, 200)),
    ).toBe(303);
    const [row] = await db`select client_hash from contact_enquiries where project_title = ${title}`;
    return row!.client_hash as string;
  }

  it("is the socket's: a direct post cannot choose its bucket with X-Forwarded-For, and one without it is still limited by its socket", async () => {
    const t = Date.now().toString(36);
    const hashes = new Set<string>();
    for (let i = 0; i < 5; i++) hashes.add(await post(`Bucket ${t} ${i}`, { "x-forwarded-for": `198.51.100.${i + 1}` }));
    hashes.add(await post(`Bucket ${t} none`));
    expect(hashes.size, "one bucket: the socket's").toBe(1);
    expect([...hashes][0]).not.toBe("");
  });

  it("follows X-Forwarded-For only as far as TRUST_PROXY says", async () => {
    const trusting = await startStack({
      db: false,
      mail: false,
      fn: false,
      env: { site: { SUPABASE_URL: stack.functionUrl, TRUST_PROXY: "loopback" } },
    });
    try {
      const t = Date.now().toString(36);
      const send = async (title: string, forwarded: string) => {
        const body = new URLSearchParams({
          name: "Ada",
          email: `ada-${title.replaceAll(" ", "-").toLowerCase()}@example.com`,
          projectTitle: title,
        }).toString();
        const response = await fetch(`${trusting.siteUrl}/?index`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": forwarded },
          body,
        });
        expect(response.status).toBe(200);
        return (await db`select client_hash from contact_enquiries where project_title = ${title}`)[0]!.client_hash as string;
      };
      const a = await send(`Trusted ${t} a`, "198.51.100.7");
      const b = await send(`Trusted ${t} b`, "198.51.100.8");
      const c = await send(`Trusted ${t} c`, "203.0.113.99, 198.51.100.7");
      expect(a).not.toBe(b);
      expect(c, "the nearest hop the trusted proxy added, not what the visitor wrote before it").toBe(a);

      // /healthz says how its own request came: `npm run verify` fails a proxy TRUST_PROXY misses.
      const via = async (siteUrl: string, headers: Record<string, string>) =>
        (await (await fetch(`${siteUrl}/healthz`, { headers: { ...headers, ...OWNER } })).json()).forwardedVia;
      expect(await via(trusting.siteUrl, { "x-forwarded-for": "198.51.100.7" })).toBe("trusted-proxy");
      expect(await via(stack.siteUrl, { "x-forwarded-for": "198.51.100.7" })).toBe("untrusted-proxy");
      expect(await via(stack.siteUrl, {})).toBe("direct");
      expect(await via(stack.siteUrl, { "x-studio-forwarded-via": "trusted-proxy" }), "a visitor cannot say it").toBe("direct");

      // Trusting the caller itself (no proxy in front): a forged X-Forwarded-For picks the address,
      // and `npm run verify` says so; the site that trusts no proxy passes.
      const proxyCheck = async (siteUrl: string) =>
        (
          await verifyDeployment({
            siteUrl,
            functionUrl: `${stack.functionUrl}/functions/v1/send-contact-email`,
            anonKey: undefined,
            redeliverySecret: undefined,
            healthzSecret: LOCAL_SECRETS.healthz,
          })
        ).find((r) => r.name.includes("trusts the proxy in front"));
      expect(await proxyCheck(trusting.siteUrl)).toMatchObject({ status: "fail", detail: expect.stringMatching(/trusts more hops/) });
      expect(await proxyCheck(stack.siteUrl)).toMatchObject({ status: "pass" });
    } finally {
      await trusting.stop();
    }
  });
});

describe("slow or lying clients", () => {
  it("a client that trickles its headers is cut off at the headers timeout", async () => {
    const started = Date.now();
    const closed = await new Promise<string>((resolve) => {
      const socket = net.connect(stack.ports.site, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "));
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk));
      // A byte of header every 300 ms: never finishing, always "active".
      const drip = setInterval(() => socket.write("a"), 300);
      socket.on("close", () => (clearInterval(drip), resolve(answer)));
      setTimeout(() => socket.destroy(), 15_000);
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(closed).toMatch(/^HTTP\/1\.1 408|^$/);
  });
});
