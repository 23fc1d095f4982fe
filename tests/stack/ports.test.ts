// Free ports for the stacks that run at once in several processes (npm test runs a dozen): a port one
// process handed out, and whose server does not listen yet, is never handed out by another
// (scripts/local-stack/ports.mjs). Each process here asks in a narrow range, so that without the
// reservations they would meet.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterEach, expect, it } from "vitest";
import { freePort } from "../../scripts/local-stack/ports.mjs";

const PORTS_MODULE = new URL("../../scripts/local-stack/ports.mjs", import.meta.url).href;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** A range of `size` ports somewhere in 20000-32000, drawn anew each run. */
function narrowRange(size: number) {
  const from = 20_000 + Math.floor(Math.random() * (12_000 - size));
  return { from, to: from + size - 1 };
}

/** A process that takes `count` ports in `range`, prints them and holds them until it is killed. */
async function holder(range: { from: number; to: number }, count: number): Promise<{ child: ChildProcess; ports: number[] }> {
  const script =
    `const { freePort } = await import(${JSON.stringify(PORTS_MODULE)});` +
    `const range = ${JSON.stringify(range)}; const ports = [];` +
    `for (let i = 0; i < ${count}; i++) ports.push(await freePort(range));` +
    `console.log(JSON.stringify(ports)); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  while (!output.includes("\n")) await once(child.stdout!, "data");
  return { child, ports: JSON.parse(output) };
}

const inRange = (range: { from: number; to: number }) => (port: number) => port >= range.from && port <= range.to;

it("processes asking at the same moment never get the same port, though none of them listens yet", async () => {
  const range = narrowRange(60);
  const taken = (await Promise.all([1, 2, 3, 4].map(() => holder(range, 12)))).flatMap(({ ports }) => ports);
  expect(taken).toHaveLength(48);
  expect(new Set(taken).size).toBe(48);
  // Most came from the narrow range (the rest, where it ran short, from the system).
  expect(taken.filter(inRange(range)).length).toBeGreaterThan(30);
});

it("a port held by a living process is not handed out; one held by a process that died is", async () => {
  const range = narrowRange(4);
  const { child, ports } = await holder(range, 4);
  const held = ports.filter(inRange(range));
  expect(held.length).toBeGreaterThan(0);

  expect(held).not.toContain(await freePort(range));

  // Killed outright: it could not give its ports up, and they are free again all the same.
  child.kill("SIGKILL");
  await once(child, "exit");
  expect(held).toContain(await freePort(range));
});
