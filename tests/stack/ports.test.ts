// Free ports for the stacks that run at once in several processes (npm test runs a dozen): a port one
// process handed out, and whose server does not listen yet, is never handed out by another
// (scripts/local-stack/ports.mjs). Each process here asks in a narrow range, so that without the
// reservations they would meet.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { freePort, RESERVATIONS } from "../../scripts/local-stack/ports.mjs";

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

/**
 * A process that takes `count` ports in `range`, prints them and holds them until it is killed, or until
 * its input ends, when it exits as a program does (giving its ports up).
 */
async function holder(
  range: { from: number; to: number },
  count: number,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; ports: number[] }> {
  const script =
    `const { freePort } = await import(${JSON.stringify(PORTS_MODULE)});` +
    `const range = ${JSON.stringify(range)}; const ports = [];` +
    `for (let i = 0; i < ${count}; i++) ports.push(await freePort(range));` +
    `console.log(JSON.stringify(ports)); process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
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

it("processes with temporary folders of their own (TMPDIR) still never get the same port", async () => {
  const range = narrowRange(12);
  const own = mkdtempSync(path.join(tmpdir(), "ports-test-"));
  try {
    const taken = (await Promise.all([holder(range, 8), holder(range, 8, { TMPDIR: own })])).flatMap(({ ports }) => ports);
    expect(new Set(taken).size).toBe(16);
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
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

/** A pid no process has: one that has just exited. */
function deadPid() {
  return spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" }).stdout.trim();
}

it("reservations that name no living process are taken over, and by one process only, however many ask at once", async () => {
  mkdirSync(RESERVATIONS, { recursive: true });
  for (let round = 0; round < 6; round++) {
    const range = narrowRange(6);
    const left = [deadPid(), "", "0", "-1", "garbage", deadPid()];
    for (let port = range.from; port <= range.to; port++) writeFileSync(path.join(RESERVATIONS, String(port)), left[port - range.from]!);
    const taken = (await Promise.all([1, 2, 3, 4, 5, 6].map(() => holder(range, 1)))).flatMap(({ ports }) => ports).filter(inRange(range));
    expect(taken.length, `round ${round}: the abandoned ports taken over`).toBeGreaterThan(0);
    expect(new Set(taken).size, `round ${round}: ${taken.join(", ")}`).toBe(taken.length);
    for (const child of children.splice(0)) child.kill("SIGKILL");
  }
});

it("a process whose reservation outlived its time and was taken over leaves the new owner's when it exits", async () => {
  const range = narrowRange(1);
  const { child, ports } = await holder(range, 1);
  expect(ports).toEqual([range.from]);
  const file = path.join(RESERVATIONS, String(range.from));
  const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
  utimesSync(file, elevenMinutesAgo, elevenMinutesAgo);

  expect(await freePort(range)).toBe(range.from);
  child.stdin!.end();
  await once(child, "exit");
  expect(readFileSync(file, "utf8"), "the reservation, after the first owner exited").toBe(String(process.pid));
});
