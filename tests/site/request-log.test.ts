// What strangers' requests make the site write is bounded (docs/decisions/032): a bad request is one line
// without a stack trace, repeated ones are counted, not repeated, and none is written as an error. Against
// the production build, over real HTTP, reading what the site wrote.
// Run with `npx vitest run --project site tests/site/request-log.test.ts`.
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { INTERVAL_MS } from "~/server/request-log.server";
import { startStack, type Stack } from "../../scripts/local-stack/stack.mjs";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ db: false, mail: false, fn: false });
}, 120_000);
afterAll(() => stack?.stop());

/** The status of the answer to `bytes` written as they are (a head fetch would not send), or 0 for none. */
function raw(bytes: string) {
  return new Promise<number>((resolve, reject) => {
    const socket = net.connect(stack.ports.site, "127.0.0.1", () => socket.end(bytes));
    let text = "";
    socket.on("data", (chunk) => (text += chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Number(text.split(" ")[1] ?? 0)));
  });
}

/**
 * What anyone can send, each a kind of refusal that the framework or a file server used to print with its stack (or,
 * for a Host no URL can be made of, as a fault), or that Node answered without a word (CONNECT); `target` is what its
 * line shows.
 */
const BAD: Record<string, { target: string; send: () => Promise<number> }> = {
  "a data request for a route without a loader": { target: "/?_data=routes/_index", send: () => get("/?_data=routes/_index") },
  "a data request for a route that does not exist": { target: "/?_data=routes/nope", send: () => get("/?_data=routes/nope") },
  "a range past the end of a file": { target: "/favicon.ico", send: () => get("/favicon.ico", { range: "bytes=99999999-" }) },
  "a Host no URL can be made of": { target: "/", send: () => raw("GET / HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n") },
  "a CONNECT": { target: "example.com:443", send: () => raw("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n") },
};
async function get(target: string, headers: Record<string, string> = {}) {
  const answer = await fetch(`${stack.siteUrl}${target}`, { headers });
  await answer.body?.cancel();
  return answer.status;
}

it("a bad request is one line without a stack; repeated ones are counted, not repeated; none is an error", async () => {
  const before = stack.site!.output.length;
  for (let round = 0; round < 30; round++) {
    for (const [kind, { send }] of Object.entries(BAD)) {
      const status = await send();
      expect(status, kind).toBeGreaterThanOrEqual(400);
      expect(status, kind).toBeLessThan(500);
    }
  }
  // The counts are written when the interval ends.
  const counted = () => (stack.site!.output.slice(before).match(/: 29 more in the last/g) ?? []).length;
  await expect
    .poll(counted, { timeout: INTERVAL_MS + 5_000, interval: 200 })
    .toBe(Object.keys(BAD).length)
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
  // 30 requests of each kind: a line and a count each, nothing else.
  expect(written.trim().split("\n"), written).toHaveLength(2 * Object.keys(BAD).length);
}, 60_000);
