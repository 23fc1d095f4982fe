// What strangers' requests make the site write is bounded (docs/decisions/032): a bad request is one line
// without a stack trace, repeated ones are counted, not repeated, and none is written as an error. Against
// the production build, over real HTTP, reading what the site wrote.
// Run with `npx vitest run --project site tests/site/request-log.test.ts`.
import { afterAll, beforeAll, expect, it } from "vitest";
import { INTERVAL_MS } from "~/server/request-log.server";
import { startStack, type Stack } from "../../scripts/local-stack/stack.mjs";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ db: false, mail: false, fn: false });
}, 120_000);
afterAll(() => stack?.stop());

/** What anyone can send, each a kind of refusal that the framework or a file server used to print with its stack. */
const BAD: Record<string, RequestInit & { target: string }> = {
  "a data request for a route without a loader": { target: "/?_data=routes/_index" },
  "a data request for a route that does not exist": { target: "/?_data=routes/nope" },
  "a range past the end of a file": { target: "/favicon.ico", headers: { range: "bytes=99999999-" } },
};

it("a bad request is one line without a stack; repeated ones are counted, not repeated; none is an error", async () => {
  const before = stack.site!.output.length;
  for (let round = 0; round < 30; round++) {
    for (const { target, ...init } of Object.values(BAD)) {
      const answer = await fetch(`${stack.siteUrl}${target}`, init);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      await answer.body?.cancel();
    }
  }
  // The counts are written when the interval ends.
  const counted = () => (stack.site!.output.slice(before).match(/: 29 more in the last/g) ?? []).length;
  await expect
    .poll(counted, { timeout: INTERVAL_MS + 5_000, interval: 200 })
    .toBe(3)
    .catch((error) => {
      throw new Error(`${error.message}\n${stack.site!.output.slice(before)}`);
    });
  const written = stack.site!.output.slice(before);
  expect(written, "no stack trace").not.toMatch(/\n\s+at /);
  expect(written, "no error printed as it was thrown").not.toMatch(/^\w*Error\b/m);
  expect(written, "no fault").not.toMatch(/^fault:/m);
  for (const { target } of Object.values(BAD)) {
    const lines = written.split("\n").filter((line) => line.startsWith("refused:") && line.includes(` ${target} `));
    expect(lines, target).toHaveLength(1);
  }
  // 90 requests: three lines, three counts, nothing else.
  expect(written.trim().split("\n"), written).toHaveLength(6);
}, 60_000);
