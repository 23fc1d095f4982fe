// `npm run stack` supervises its parts as the platform does (docs/decisions/025): a killed
// function is started again and answers; a paused catcher slows no answer, and the mail that waited goes
// out on the local schedule once it is back; a killed catcher or database stops the whole stack, named,
// with exit code 1, no process left and every port free; caught mail survives the catcher's restart, a
// kept message cut short is left out, and a mail folder that cannot take a mail makes the catcher refuse
// it for now (the schedule sends it later), never stop; npm stopped alone leaves no part of it running.
// Run with `npx vitest run --project stack tests/stack/supervision.test.ts` (Linux: signals and /proc).
import assert from "node:assert/strict";
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, test } from "vitest";
import { LOCAL_SECRETS } from "../../scripts/local-stack/environment.mjs";
import { isListening } from "../../scripts/local-stack/ports.mjs";
import { REDELIVERY_SECRET_HEADER } from "../../scripts/local-stack/schedule.mjs";
import { REDELIVERY_SECRET_HEADER as FUNCTION_REDELIVERY_HEADER } from "../../supabase/functions/send-contact-email/health.ts";
import { descendants, isCatcher, isFunction, isPostmaster, part, stillRunning } from "./process-tree.ts";
import { freePorts, functionUrl, type Ports, sendEnquiry, stackFolder, startStack, until, visitorMessage } from "./start-stack.ts";

/** The baseline migration, whatever its date (decision 021): the one that schedules redelivery. */
const MIGRATIONS = path.resolve(import.meta.dirname, "../../supabase/migrations");
const BASELINE_MIGRATION = path.join(
  MIGRATIONS,
  readdirSync(MIGRATIONS).find((name) => name.endsWith("_baseline.sql"))!,
);

type Stack = Awaited<ReturnType<typeof startStack>>;
type Caught = { headers: Record<string, string> };

const mailCount = async (ports: Ports): Promise<number> =>
  (await (await fetch(`http://127.0.0.1:${ports.mailUi}/messages/count`)).json()).count;

const send = (ports: Ports, tag: string, i: number) => sendEnquiry(ports, visitorMessage(tag, i));

/** The stack ended with exit code 1, its output names `part`, none of its processes is left and every port is free. */
async function stoppedWhole(stack: Stack, ports: Ports, procs: ReturnType<typeof descendants>, named: RegExp) {
  const code = await Promise.race([stack.exited, new Promise((r) => setTimeout(() => r("still running after 30 s"), 30_000))]);
  assert.equal(code, 1, stack.output);
  assert.match(stack.output, named);
  await until(async () => stillRunning(procs).length === 0, 10_000);
  assert.deepEqual(stillRunning(procs), [], "processes left behind");
  for (const [name, port] of Object.entries(ports)) assert.equal(await isListening(port), false, `port of ${name} still held`);
}

// Short enough for a test: redelivery every 2 s, a retry due 1 s after a failure, a send given up after 1 s.
const FAST_RECOVERY = { STACK_REDELIVERY_SECONDS: "2", RETRY_BASE_SECONDS: "1", MAIL_TIMEOUT_MS: "1000" };

describe("npm run stack when a part dies or stalls", () => {
  const folder = stackFolder();
  const mailFolder = path.join(folder.dataDir, "mail");
  let ports: Ports;
  let stack: Stack;
  let caughtBeforeKill = 0;
  beforeAll(async () => {
    ports = await freePorts();
    stack = await startStack(ports, folder, FAST_RECOVERY);
  });
  afterAll(async () => {
    await stack?.stop();
    folder.remove();
  });

  test("a killed function is started again, with a line saying why and how often, and answers", async () => {
    process.kill(part(stack.pid, isFunction).pid, "SIGKILL");
    assert.ok(
      await until(async () => /the function exited \(signal SIGKILL\); starting it again \(1 exit in the last minute/.test(stack.output)),
      stack.output,
    );
    assert.equal(await until(async () => (await send(ports, "Restarted", 0).catch(() => undefined))?.status), 200);
    assert.match(stack.output, /the function is running again/);
  });

  test("a paused catcher slows no answer; once it is back the mail goes out on the schedule, with no new enquiry and no manual call", async () => {
    const catcher = part(stack.pid, isCatcher).pid;
    const ids = new Set<string>();
    process.kill(catcher, "SIGSTOP");
    try {
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(ports, "Paused", i)));
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(10).fill(200),
      );
      for (const answer of answers) ids.add(((await answer.json()) as { id: string }).id);
      assert.ok(performance.now() - started < 5000, `answered in ${performance.now() - started} ms`);
      // Every send has timed out by now (MAIL_TIMEOUT_MS): the mail waits for a retry.
      await new Promise((r) => setTimeout(r, 2500));
    } finally {
      process.kill(catcher, "SIGCONT");
    }
    // Each of the 20 mails (a studio notification and a confirmation per enquiry) arrives; one whose
    // acknowledgement was lost in the pause may arrive twice (at least once, by design).
    const keys = async () =>
      new Set(
        ((await (await fetch(`http://127.0.0.1:${ports.mailUi}/messages`)).json()) as Caught[])
          .map((m) => m.headers["x-delivery-key"] ?? "")
          .filter((key) => ids.has(key.split(":")[0]!)),
      );
    assert.equal(await until(async () => (await keys()).size >= 20 && (await keys()).size, 30_000), 20);
    assert.ok(await until(async () => /scheduled redelivery: [1-9]\d* sent/.test(stack.output)), "the schedule's line");

    const health = await (
      await fetch(`${functionUrl(ports)}/health`, { headers: { [REDELIVERY_SECRET_HEADER]: LOCAL_SECRETS.redelivery } })
    ).json();
    assert.deepEqual(health.redelivery.localSchedule, { everySeconds: 2 });
    assert.ok(health.redelivery.secondsSinceLastRun <= 5, JSON.stringify(health.redelivery));
  });

  test("the schedule calls what pg_cron calls in production: the same header and body to /redeliver", () => {
    assert.equal(REDELIVERY_SECRET_HEADER, FUNCTION_REDELIVERY_HEADER);
    const baseline = readFileSync(BASELINE_MIGRATION, "utf8");
    const job = /perform cron\.schedule\([\s\S]*?\$job\$([\s\S]*?)\$job\$/.exec(baseline)?.[1] ?? "";
    assert.match(job, /\|\| '\/redeliver'/);
    assert.match(job, new RegExp(`'${REDELIVERY_SECRET_HEADER}'`));
    assert.match(job, /body := '\{\}'::jsonb/);
  });

  test("a killed catcher stops the whole stack, naming it: exit code 1, no process left, every port free", async () => {
    const procs = descendants(stack.pid);
    caughtBeforeKill = await mailCount(ports);
    process.kill(part(stack.pid, isCatcher).pid, "SIGKILL");
    await stoppedWhole(stack, ports, procs, /\[stack\] the SMTP catcher exited \(signal SIGKILL\); it cannot come back on its own/);
  });

  test("caught mail survives the catcher's restart (.stack/db/mail), and a kept message cut short is left out, not a failed start", async () => {
    // What a full disk or a kill between the two files can leave: an empty envelope.
    writeFileSync(path.join(mailFolder, "999999.json"), "");
    stack = await startStack(ports, folder, FAST_RECOVERY);
    assert.equal(await mailCount(ports), caughtBeforeKill);
    assert.ok(caughtBeforeKill >= 20);
    assert.match(stack.banner, /kept in .*mail\)/);
    assert.match(stack.output, /left out the kept message .*999999/);
  });

  test("a mail folder that cannot take a mail: the catcher refuses it for now and stays up; the mail goes out once it can", async () => {
    const before = await mailCount(ports);
    renameSync(mailFolder, `${mailFolder}.aside`);
    writeFileSync(mailFolder, "not a folder");
    try {
      assert.equal((await send(ports, "FolderGone", 0)).status, 200);
      assert.ok(await until(async () => /could not keep a message/.test(stack.output)), stack.output);
    } finally {
      rmSync(mailFolder);
      renameSync(`${mailFolder}.aside`, mailFolder);
    }
    // Both mails of the enquiry, on the schedule.
    assert.ok(await until(async () => (await mailCount(ports)) >= before + 2, 30_000), stack.output);
    assert.doesNotMatch(stack.output, /cannot come back on its own/);
  });
});

describe("npm run stack when npm itself is stopped", () => {
  const folder = stackFolder();
  let ports: Ports;
  afterAll(() => folder.remove());

  test.each(["SIGTERM", "SIGKILL"] as const)(
    "%s to npm alone (its shell passes no signal on): the orphaned stack stops whole, no process left, every port free",
    async (signal) => {
      ports = await freePorts();
      const stack = await startStack(ports, folder, {}, { throughNpm: true });
      const procs = descendants(stack.pid);
      process.kill(stack.pid, signal);
      try {
        await until(async () => stillRunning(procs).length === 0, 30_000);
        assert.deepEqual(stillRunning(procs), [], "processes left behind");
        for (const [name, port] of Object.entries(ports)) assert.equal(await isListening(port), false, `port of ${name} still held`);
      } finally {
        // What a failure leaves must not outlive the test.
        for (const p of stillRunning(procs)) process.kill(p.pid, "SIGKILL");
      }
    },
  );
});

describe("npm run stack when the database dies", () => {
  const folder = stackFolder();
  let ports: Ports;
  let stack: Stack;
  beforeAll(async () => {
    ports = await freePorts();
    stack = await startStack(ports, folder);
  });
  afterAll(async () => {
    await stack?.stop();
    folder.remove();
  });

  test("a killed database stops the whole stack, naming it: exit code 1, no process left, every port free", async () => {
    const procs = descendants(stack.pid);
    process.kill(part(stack.pid, isPostmaster(stack.pid)).pid, "SIGKILL");
    await stoppedWhole(stack, ports, procs, /\[stack\] the database exited \(signal SIGKILL\); it cannot come back on its own/);
  });
});
