// `npm run verify` (scripts/deploy/verify.mjs), run as the owner runs it, against the local stack:
// it passes on a healthy stack, and fails, naming the check, on each broken setup: the site behind a
// real shared cache (nginx) it does not trust, the function stopped, a relay secret the function does
// not know, the site's origin missing from the function's CORS origins, the mail provider refusing
// the studio's account, the site down.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENQUIRY_HEADERS } from "#shared/contact-message.ts";
import { RELAY_ALARM } from "~/server/function-check.server";
import { hasNginx } from "../../scripts/local-stack/cdn.mjs";
import { LOCAL_SECRETS } from "../../scripts/local-stack/environment.mjs";
import { freePort } from "../../scripts/local-stack/ports.mjs";
import { startStack, type Stack } from "../../scripts/local-stack/stack.mjs";
import { runVerify } from "./run-verify";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({});
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

/** `npm run verify -- --site … --function …`, with the owner's secrets (the function's, the site's) in the environment. */
function verify(siteUrl: string, env: Record<string, string> = {}) {
  return runVerify(["--site", siteUrl, "--function", `${stack.functionUrl}/functions/v1/send-contact-email`], {
    REDELIVERY_SECRET: LOCAL_SECRETS.redelivery,
    HEALTHZ_SECRET: LOCAL_SECRETS.healthz,
    ...env,
  });
}
const line = (output: string, check: string) => output.split("\n").find((l) => l.includes(check)) ?? `(no line for "${check}")`;

describe("npm run verify", () => {
  it("passes against the healthy local stack, one line per check", async () => {
    const { code, output } = await verify(stack.siteUrl);
    expect(code, output).toBe(0);
    expect(output.split("\n").filter((l) => /^(PASS|FAIL|SKIP|WARN)\s/.test(l)).length).toBe(15);
    // The sender (from the function's details) is not the inbox; its .example domain has no DNS to check.
    expect(line(output, "sender is not the studio's inbox")).toMatch(/^PASS .*website@studio\.example is not STUDIO_INBOX/);
    for (const dns of ["SPF:", "DKIM:", "DMARC:"])
      expect(line(output, dns)).toMatch(/^SKIP .*documentation or local domain \(studio\.example\)/);
    expect(line(output, "trusts the proxy in front")).toMatch(/^PASS .*direct/);
    expect(line(output, "the site's relay is accepted")).toMatch(/^PASS/);
    expect(line(output, "client address")).toMatch(/^SKIP .*none is trustworthy.*not on the hosted platform/);
    // Locally nothing overwrites a header: each forged value arrives as sent (its hash, as the function writes it).
    expect(line(output, "client address")).toMatch(/cf-connecting-ip: passed through; .*x-forwarded-for: passed through/);
  });

  it("reads the site's /healthz details only with the site's HEALTHZ_SECRET: without it those checks are skipped, a wrong one fails", async () => {
    const without = await verify(stack.siteUrl, { HEALTHZ_SECRET: "" });
    expect(line(without.output, "trusts the proxy in front")).toMatch(/^SKIP .*HEALTHZ_SECRET/);
    expect(line(without.output, "the site's relay is accepted")).toMatch(/^SKIP .*HEALTHZ_SECRET/);
    const wrong = await verify(stack.siteUrl, { HEALTHZ_SECRET: "not-the-sites-secret-but-long-enough-000" });
    expect(wrong.code).toBe(1);
    expect(line(wrong.output, "trusts the proxy in front")).toMatch(/^FAIL .*did not accept the HEALTHZ_SECRET/);
  });

  it.skipIf(!hasNginx())(
    "behind the nginx CDN: the page's checks pass, and a site that does not trust the CDN (no TRUST_PROXY) fails",
    async () => {
      const cdn = await stack.startCdn();
      try {
        const { code, output } = await verify(cdn.url);
        expect(code, output).toBe(1);
        expect(line(output, "revalidates to 304")).toMatch(/^PASS/);
        expect(line(output, "trusts the proxy in front")).toMatch(/^FAIL .*TRUST_PROXY does not name/);
        expect(output.split("\n").filter((l) => l.startsWith("FAIL")).length, output).toBe(1);
      } finally {
        await cdn.stop();
      }
    },
  );

  it("fails with the function stopped, naming its health, CORS and the relay", async () => {
    await stack.stopFunction();
    try {
      const { code, output } = await verify(stack.siteUrl);
      expect(code).toBe(1);
      for (const check of ["CORS preflight", "function's health is ok", "the site's relay is accepted"])
        expect(line(output, check), check).toMatch(/^FAIL/);
      expect(line(output, "function's health is ok")).toMatch(/\/health: fetch failed \(ECONNREFUSED\)/);
      expect(line(output, "client address")).toMatch(/^FAIL .*the function did not answer/);
      expect(line(output, "the page answers 200")).toMatch(/^PASS/);
    } finally {
      await stack.startFunction();
    }
  });

  it("fails when the function does not know the site's relay secret", async () => {
    await stack.startFunction({ ENQUIRY_RELAY_SECRET: "another-relay-secret-the-site-does-not-have-0123" });
    try {
      const { code, output } = await verify(stack.siteUrl);
      expect(code).toBe(1);
      expect(line(output, "the site's relay is accepted")).toMatch(/^FAIL .*does not recognise the site's ENQUIRY_RELAY_SECRET/);
    } finally {
      await stack.startFunction();
    }
  });

  it("rings the owner's alarm in the site's log when the function stops knowing the site's relay secret after start-up, with nobody asking but the container's HEALTHCHECK", async () => {
    const owner = { Authorization: `Bearer ${LOCAL_SECRETS.healthz}` };
    const relay = async (headers = {}) =>
      ((await (await fetch(`${stack.siteUrl}/healthz`, { headers })).json()) as { function?: { relay?: string } }).function?.relay;
    const alarms = () => stack.site!.output.split(RELAY_ALARM).length - 1;
    const poll = async (what: string, done: () => Promise<boolean>, headers = {}) => {
      for (const deadline = Date.now() + 30_000; !(await done()); await new Promise((r) => setTimeout(r, 1000))) {
        if (Date.now() > deadline) throw new Error(`no ${what} within 30 s`);
        await relay(headers);
      }
    };
    // The site's last check found the secret recognised (an alarm rings once per change).
    await poll("recognised relay", async () => (await relay(owner)) === "recognised", owner);
    const before = alarms();
    await stack.startFunction({ ENQUIRY_RELAY_SECRET: "another-relay-secret-the-site-does-not-have-0123" });
    try {
      // Anonymous calls only, as the HEALTHCHECK makes them: each may start the site's check (one per 10 s).
      await poll("alarm in the site's log", async () => alarms() > before);
    } finally {
      await stack.startFunction();
    }
  }, 90_000);

  it("fails when the site's origin is missing from the function's ALLOWED_ORIGINS", async () => {
    await stack.startFunction({ ALLOWED_ORIGINS: "http://127.0.0.1:1" });
    try {
      const { code, output } = await verify(stack.siteUrl);
      expect(code).toBe(1);
      expect(line(output, "CORS preflight")).toMatch(/^FAIL .*add it to the function's ALLOWED_ORIGINS/);
    } finally {
      await stack.startFunction();
    }
  });

  it("with the site down, names the URL it could not reach and still checks the function", async () => {
    const closed = await freePort();
    const { code, output } = await verify(`http://127.0.0.1:${closed}`);
    expect(code).toBe(1);
    expect(line(output, "the page answers 200")).toContain(
      `the page answers 200: GET http://127.0.0.1:${closed}/: fetch failed (ECONNREFUSED)`,
    );
    expect(line(output, "every inline script")).toMatch(/^SKIP .*the page did not answer/);
    expect(line(output, "function's health is ok")).toMatch(/^PASS/);
  });

  // Last: the refusal it records stays in this stack's database until a mail is sent.
  it("fails when the mail provider refuses the studio's account (a wrong key), naming it", async () => {
    const provider = http.createServer((_request, response) => {
      response.writeHead(403, { "content-type": "application/json" });
      response.end(JSON.stringify({ statusCode: 403, name: "invalid_api_key", message: "API key is invalid" }));
    });
    await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
    const { port } = provider.address() as AddressInfo;
    await stack.startFunction({
      MAIL_TRANSPORT: "resend",
      RESEND_API_KEY: "re_wrong_key_0123456789",
      RESEND_API_URL: `http://127.0.0.1:${port}`,
    });
    try {
      const enquiry = await fetch(`${stack.functionUrl}/functions/v1/send-contact-email`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: new URL(stack.siteUrl).origin,
          [ENQUIRY_HEADERS.fillMs]: "5000",
          [ENQUIRY_HEADERS.idempotencyKey]: randomUUID(),
        },
        body: JSON.stringify({ name: "Ada", email: `ada-verify-${Date.now()}@example.com`, projectTitle: "Verify" }),
      });
      expect(enquiry.status, await enquiry.text()).toBe(200);
      const { code, output } = await verify(stack.siteUrl);
      expect(code).toBe(1);
      expect(line(output, "function's health is ok")).toMatch(/^FAIL .*the mail provider refuses the studio's account .*invalid_api_key/);
    } finally {
      provider.close();
      await stack.startFunction();
    }
  });
});
