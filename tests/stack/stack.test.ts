// `npm run stack` as a developer or tester starts it (scripts/platform/cli.mjs, not a test-only variant),
// held to what issue 11 asks of it: a burst of enquiries at once, a burst of retries of one
// enquiry, and data that survives a restart. Run with `npx vitest run --project stack`.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll as after, beforeAll as before, describe, test } from "vitest";
import { portsToEnv } from "../../scripts/platform/environment.mjs";
import { freePort } from "../../scripts/platform/ports.mjs";
import { ENQUIRY_HEADERS } from "../../supabase/functions/_shared/contact-message.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "studio-stack-")), "db");
// As root the server runs as the `postgres` user, which must reach the data folder.
chmodSync(path.dirname(dataDir), 0o755);

/** Starts `npm run stack`'s script and resolves once it prints its URLs; `stop()` is the developer's Ctrl-C. */
async function startStack(ports: Record<string, number>) {
  const child = spawn(process.execPath, ["scripts/platform/cli.mjs", "stack"], {
    cwd: ROOT,
    env: {
      ...process.env,
      STACK_DB_DIR: dataDir,
      ...portsToEnv(ports),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the stack did not start in 90 s:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("is running")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    exited.then((code) => reject(new Error(`the stack exited with ${code}:\n${output}`)));
  });
  return {
    get output() {
      return output;
    },
    async stop() {
      child.kill("SIGINT");
      await exited;
    },
  };
}

const ports: Record<string, number> = {};
let stack: Awaited<ReturnType<typeof startStack>>;
let db: postgres.Sql;
const functionUrl = () => `http://127.0.0.1:${ports.function}/functions/v1/send-contact-email`;
const mailCount = async () => (await (await fetch(`http://127.0.0.1:${ports.mailUi}/messages/count`)).json()).count;

function send(message: object, key: string = crypto.randomUUID()) {
  return fetch(functionUrl(), {
    method: "POST",
    headers: { "content-type": "application/json", [ENQUIRY_HEADERS.idempotencyKey]: key, [ENQUIRY_HEADERS.fillMs]: "5000" },
    body: JSON.stringify(message),
  });
}
// Each message its own address: a confirmation goes to one address at most once an hour.
const message = (tag: string, i = 0) => ({
  name: `Visitor ${i}`,
  email: `visitor${i}-${tag.toLowerCase()}@example.com`,
  projectTitle: `${tag} ${i}`,
  projectDetails: "",
});
const rowsTagged = async (tag: string) =>
  (await db`select count(*)::int as n from contact_enquiries where project_title like ${tag + " %"}`)[0]!.n;

async function until<T>(check: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("npm run stack", () => {
  before(async () => {
    for (const name of ["site", "function", "db", "mailUi", "smtp"]) ports[name] = await freePort();
    stack = await startStack(ports);
    db = postgres(`postgres://postgres:postgres@127.0.0.1:${ports.db}/postgres`, { max: 2, onnotice: () => {} });
  });
  after(async () => {
    await db?.end();
    await stack?.stop();
    rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  test("100 distinct enquiries at once: 100 × 200, 100 rows, 200 mails, no error logged", async () => {
    const mailsBefore = await mailCount();
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => send(message("Burst", i))));
    assert.deepEqual(
      responses.map((r) => r.status),
      Array(100).fill(200),
    );
    assert.equal(await rowsTagged("Burst"), 100);
    assert.equal(await until(async () => (await mailCount()) - mailsBefore === 200 && 200), 200);
    assert.doesNotMatch(stack.output, /"status":5\d\d|mail-pending|mail-error/);
  });

  test("50 retries of one enquiry at once: 50 × 200 with one id, 1 row, 2 mails", async () => {
    const mailsBefore = await mailCount();
    const key = crypto.randomUUID();
    const responses = await Promise.all(Array.from({ length: 50 }, () => send(message("Retry"), key)));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    assert.deepEqual(
      responses.map((r) => r.status),
      Array(50).fill(200),
    );
    assert.equal(new Set(bodies.map((b) => b.id)).size, 1);
    assert.equal(await rowsTagged("Retry"), 1);
    await until(async () => (await mailCount()) - mailsBefore >= 2);
    await new Promise((r) => setTimeout(r, 500)); // a duplicate mail would arrive by now
    assert.equal((await mailCount()) - mailsBefore, 2);
  });

  test("a restart keeps the stored enquiries (data folder)", async () => {
    const [{ id }] = (await db`select id from contact_enquiries where project_title = 'Retry 0'`) as unknown as [{ id: string }];
    await db.end();
    await stack.stop();
    stack = await startStack(ports);
    assert.match(stack.output, /PostgreSQL 17, data in /);
    assert.doesNotMatch(stack.output, /, new\)/, "the second start reuses the data folder");
    db = postgres(`postgres://postgres:postgres@127.0.0.1:${ports.db}/postgres`, { max: 2, onnotice: () => {} });
    assert.equal((await db`select count(*)::int as n from contact_enquiries where id = ${id}`)[0]!.n, 1);
    assert.equal(await rowsTagged("Burst"), 100);
  });
});
