// A stack killed any way starts again (docs/decisions/032): its parts write their own logs, so a paused
// supervisor stalls no answer; a function killed again and again is serving again at once, and only a
// crash loop waits, a couple of seconds at most; everything it keeps is inside its own data folder; a
// Ctrl-C to the terminal stops it cleanly, printing no error; and a start after a supervisor was
// SIGKILLed stops what that run left running (its own recorded processes only) and starts, saying so.
// Run with `npx vitest run --project stack tests/stack/start-again.test.ts` (Linux: signals and /proc).
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, test } from "vitest";
import { keepRunning, MAX_RESTART_DELAY_MS, restartDelayMs } from "../../scripts/local-stack/supervisor.mjs";
import { descendants, isCatcher, isFunction, isPostmaster, part, type Proc, stillRunning } from "./process-tree.ts";
import { freePorts, functionUrl, type Ports, startStack, until } from "./start-stack.ts";

type Stack = Awaited<ReturnType<typeof startStack>>;

/** A stack's own folders, as a developer may give them: its data folder a fresh path in the system's temporary directory. */
function freshFolders() {
  const dir = mkdtempSync(path.join(tmpdir(), "studio-env-"));
  // As root the server runs as the `postgres` user, which must reach the data folder.
  chmodSync(dir, 0o755);
  const dataDir = path.join(tmpdir(), `studio-stack-db-${process.pid}-${Math.random().toString(36).slice(2)}`);
  return { dir, dataDir, remove: () => [dir, dataDir].forEach((folder) => rmSync(folder, { recursive: true, force: true })) };
}

/** Whether the function answers (any status) within `timeoutMs`. */
const answers = async (ports: Ports, timeoutMs = 2000) =>
  fetch(`${functionUrl(ports)}/health`, { signal: AbortSignal.timeout(timeoutMs) }).then(
    (response) => response.body?.cancel().then(() => true) ?? true,
    () => false,
  );

/** Milliseconds from now until the function answers again (at most `timeoutMs`). */
async function msUntilServing(ports: Ports, timeoutMs = 30_000) {
  const started = performance.now();
  while (!(await answers(ports, 1000))) {
    if (performance.now() - started > timeoutMs) return Infinity;
    await new Promise((r) => setTimeout(r, 25));
  }
  return performance.now() - started;
}

/** A request the function answers 400 and logs, as any stranger can send. */
const unreadable = (ports: Ports) =>
  fetch(functionUrl(ports), {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": crypto.randomUUID(), "x-form-fill-ms": "5000" },
    body: `{"name": "${"x".repeat(500)}"`,
    signal: AbortSignal.timeout(4000),
  }).then(
    async (response) => (await response.text(), response.status),
    (error) => `no answer in 4 s (${error.name})`,
  );

describe("the restart policy", () => {
  test("a part killed again and again is started again at once; only a crash loop waits, a couple of seconds at most", async () => {
    let clock = 0;
    const lines: string[] = [];
    const kills: Array<() => void> = [];
    const start = async () => {
      let end = (_code: string) => {};
      const exited = new Promise<string>((resolve) => (end = resolve));
      kills.push(() => end("SIGKILL"));
      return { child: {} as never, output: "", exited, stop: async () => end("SIGTERM") };
    };
    const handle = await keepRunning("the part", start, { log: (line) => lines.push(line), now: () => clock });
    for (let kill = 0; kill < 3; kill++) {
      clock += 3000; // each ran for 3 s: killed, not crashing
      kills.at(-1)!();
      await until(async () => kills.length === kill + 2, 1000);
    }
    await handle.stop();
    assert.equal(lines.filter((line) => / starting it again \(/.test(line)).length, 3, lines.join("\n"));
    assert.doesNotMatch(lines.join("\n"), /starting it again in /);
    for (let crashes = 1; crashes < 40; crashes++) assert.ok(restartDelayMs(crashes) <= MAX_RESTART_DELAY_MS, `${crashes} crashes`);
    assert.ok(MAX_RESTART_DELAY_MS <= 2000);
    assert.ok(restartDelayMs(3) > 0, "a crash loop waits");
  });
});

describe("npm run stack killed any way starts again", () => {
  const folders = freshFolders();
  let ports: Ports;
  let stack: Stack;
  beforeAll(async () => {
    ports = await freePorts();
    stack = await startStack(ports, folders, {}, { ownGroup: true });
  });
  afterAll(async () => {
    // What a failure leaves must not outlive the test.
    if (stack) for (const p of stillRunning(descendants(stack.pid))) process.kill(p.pid, "SIGKILL");
    if (stack && (await Promise.race([stack.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 100))])) === false)
      process.kill(stack.pid, "SIGKILL");
    folders.remove();
  });

  test("everything it keeps is inside its own data folder: two fresh folders in the temporary directory share no mail", () => {
    const kept = /kept in (\S+?)\)/.exec(stack.banner)?.[1] ?? "";
    assert.ok(path.resolve(kept).startsWith(folders.dataDir + path.sep), `caught mail kept in ${kept}, not in ${folders.dataDir}`);
    assert.ok(statSync(path.join(folders.dataDir, "logs")).isDirectory(), "the parts' logs");
  });

  test("a paused supervisor stalls no answer: the function writes its own log, and the log shows it once the supervisor is back", async () => {
    const log = path.join(folders.dataDir, "logs/function.log");
    const size = () => (existsSync(log) ? statSync(log).size : 0);
    const before = size();
    process.kill(stack.pid, "SIGSTOP");
    const slowest: Array<number | string> = [];
    try {
      // Well past a pipe's 64 KiB of the function's output, ten at a time.
      const started = performance.now();
      while (size() - before < 192 * 1024 && performance.now() - started < 30_000) {
        const batch = await Promise.all(Array.from({ length: 10 }, () => unreadable(ports)));
        const refused = batch.filter((status) => status !== 400);
        if (refused.length) slowest.push(...refused);
        if (slowest.length) break;
      }
    } finally {
      process.kill(stack.pid, "SIGCONT");
    }
    assert.deepEqual(slowest, [], "every request answered 400 within 4 s while the supervisor was paused");
    assert.ok(size() - before >= 192 * 1024, `the function wrote ${size() - before} bytes meanwhile`);
    assert.ok(
      await until(async () => /\[function\]/.test(stack.output.slice(-100_000))),
      "its lines are shown once the supervisor is back",
    );
  });

  test("a function killed a second and a third time, 3 s apart, is serving again at once each time (within 1.5 s)", async () => {
    const times: number[] = [];
    for (let kill = 1; kill <= 3; kill++) {
      const started = performance.now();
      process.kill(part(stack.pid, isFunction).pid, "SIGKILL");
      // The port is closed with the process: wait for the next one to answer.
      await new Promise((r) => setTimeout(r, 20));
      times.push(await msUntilServing(ports));
      await new Promise((r) => setTimeout(r, Math.max(0, 3000 - (performance.now() - started))));
    }
    assert.ok(
      times.every((ms) => ms < 1500),
      `serving again after ${times.map((ms) => Math.round(ms)).join(", ")} ms\n${stack.output}`,
    );
    assert.doesNotMatch(stack.output, /the function exited .*; starting it again in /);
  });

  test("a Ctrl-C to the terminal (SIGINT to every process at once) stops it cleanly: exit code 0, no error printed", async () => {
    const procs = descendants(stack.pid);
    // A visitor's request on its way keeps the site's server open after the terminal's SIGINT, until the
    // stack's own SIGTERM has reached the site too; then the visitor leaves, and the server closes.
    const visitor = net.connect(ports.site, "127.0.0.1", () => visitor.write("GET / HTTP/1.1\r\nHost: localhost\r\n"));
    visitor.on("error", () => undefined);
    await new Promise((r) => visitor.once("connect", r));
    const exited = stack.interrupt();
    await new Promise((r) => setTimeout(r, 1000));
    visitor.destroy();
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("still running after 30 s"), 30_000))]);
    assert.equal(code, 0, stack.output);
    assert.doesNotMatch(stack.output.slice(stack.output.indexOf("Stopping")), /Error|ERR_|\n\s+at /, stack.output);
    assert.ok(await until(async () => stillRunning(procs).length === 0, 10_000), "no process left");
  });

  test("a start after the supervisor was SIGKILLed stops what that run left (its own processes) and starts, saying so in one line", async () => {
    stack = await startStack(ports, folders, {}, { ownGroup: true });
    const parts = [isFunction, isCatcher, isPostmaster(stack.pid), (p: Proc) => p.command.includes("remix-serve")].map((match) =>
      part(stack.pid, match),
    );
    process.kill(stack.pid, "SIGKILL");
    await stack.exited;
    assert.equal(stillRunning(parts).length, 4, "a SIGKILL leaves the four parts running");
    let again: Stack | undefined;
    try {
      again = await startStack(ports, folders, {}, { ownGroup: true });
      const said = again.output.split("\n").filter((line) => /stopped what it left running/.test(line));
      assert.equal(said.length, 1, again.output);
      for (const name of ["the site", "the function", "the SMTP catcher", "the database"]) assert.match(said[0]!, new RegExp(name));
      assert.deepEqual(stillRunning(parts), [], "what the killed run left is stopped");
      assert.doesNotMatch(again.output, /lock file|\n\s+at /, "no raw PostgreSQL error, no stack trace");
      assert.equal(await answers(ports), true);
    } finally {
      for (const p of stillRunning(parts)) process.kill(p.pid, "SIGKILL");
      if (again) {
        stack = again;
        assert.equal(await again.interrupt(), 0, again.output);
      }
    }
  });
});
