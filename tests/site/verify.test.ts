// `npm run verify` (scripts/deploy/verify.mjs), run as the owner runs it, against the local platform:
// it passes on a healthy stack and on the stack behind a real shared cache (nginx), and fails, naming
// the check, on each broken setup: the function stopped, a relay secret the function does not know,
// the site's origin missing from the function's CORS origins.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasNginx } from "../../scripts/platform/cdn.mjs";
import { LOCAL_SECRETS } from "../../scripts/platform/environment.mjs";
import { startStack, type Stack } from "../../scripts/platform/stack.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({});
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

/** `npm run verify -- --site … --function …`, with the redelivery secret in the environment. */
function verify(siteUrl: string) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ["scripts/deploy/verify.mjs", "--site", siteUrl, "--function", `${stack.functionUrl}/functions/v1/send-contact-email`],
      {
        cwd: ROOT,
        env: { ...process.env, REDELIVERY_SECRET: LOCAL_SECRETS.redelivery },
      },
    );
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => resolve({ code, output }));
  });
}
const line = (output: string, check: string) => output.split("\n").find((l) => l.includes(check)) ?? `(no line for "${check}")`;

describe("npm run verify", () => {
  it("passes against the healthy local stack, one line per check", async () => {
    const { code, output } = await verify(stack.siteUrl);
    expect(code, output).toBe(0);
    expect(output.split("\n").filter((l) => /^(PASS|FAIL|SKIP)\s/.test(l)).length).toBe(10);
    expect(line(output, "the site's relay is accepted")).toMatch(/^PASS/);
    expect(line(output, "client address")).toMatch(/^SKIP .*none is trustworthy.*not on the hosted platform/);
  });

  it.skipIf(!hasNginx())("passes against the stack behind the nginx CDN", async () => {
    const cdn = await stack.startCdn();
    try {
      const { code, output } = await verify(cdn.url);
      expect(code, output).toBe(0);
      expect(line(output, "revalidates to 304")).toMatch(/^PASS/);
    } finally {
      await cdn.stop();
    }
  });

  it("fails with the function stopped, naming its health, CORS and the relay", async () => {
    await stack.stopFunction();
    try {
      const { code, output } = await verify(stack.siteUrl);
      expect(code).toBe(1);
      for (const check of ["CORS preflight", "function's health is ok", "the site's relay is accepted"])
        expect(line(output, check), check).toMatch(/^FAIL/);
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
});
