// `npm run stack` as a developer or tester starts it (scripts/local-stack/cli.mjs, not a test-only variant),
// held to what decision 010 asks of it: a burst of enquiries at once, a burst of retries of one
// enquiry, and data that survives a restart. Run with `npx vitest run --project stack`.
import assert from "node:assert/strict";
import postgres from "postgres";
import { afterAll as after, beforeAll as before, describe, test } from "vitest";
import { freePorts, type Ports, sendEnquiry, stackFolder, startStack, until, visitorMessage } from "./start-stack.ts";

const folder = stackFolder();

let ports: Ports;
let stack: Awaited<ReturnType<typeof startStack>>;
let db: postgres.Sql;
const mailCount = async () => (await (await fetch(`http://127.0.0.1:${ports.mailUi}/messages/count`)).json()).count;

const send = (message: object, key?: string) => sendEnquiry(ports, message, { key });
const message = visitorMessage;
const rowsTagged = async (tag: string) =>
  (await db`select count(*)::int as n from contact_enquiries where project_title like ${tag + " %"}`)[0]!.n;

describe("npm run stack", () => {
  before(async () => {
    ports = await freePorts();
    stack = await startStack(ports, folder);
    db = postgres(`postgres://postgres:postgres@127.0.0.1:${ports.db}/postgres`, { max: 2, onnotice: () => {} });
  });
  after(async () => {
    await db?.end();
    await stack?.stop();
    folder.remove();
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
    stack = await startStack(ports, folder);
    assert.match(stack.output, /PostgreSQL 17, data in /);
    assert.doesNotMatch(stack.output, /, new\)/, "the second start reuses the data folder");
    db = postgres(`postgres://postgres:postgres@127.0.0.1:${ports.db}/postgres`, { max: 2, onnotice: () => {} });
    assert.equal((await db`select count(*)::int as n from contact_enquiries where id = ${id}`)[0]!.n, 1);
    assert.equal(await rowsTagged("Burst"), 100);
  });
});
