// The fault suite (decisions 025 and 032): a steady load of enquiries through the local stack (stack.mjs: PostgreSQL,
// the function under its supervisor, the SMTP catcher in its own process keeping mail on disk, the
// redelivery schedule), with one fault injected in the middle of each phase, then a wait for recovery
// and a table: what was sent, answered 2xx, refused (an HTTP error), got no answer (no HTTP response
// within the limit: reset, refused connection, timeout), stored, mailed (both mails of a stored enquiry
// caught), repeated mails (by delivery key, and those of them that carry the first copy's Message-ID,
// which a mail client collapses), and lost (answered 2xx but not stored, or stored but not mailed after
// recovery). A delivery claimed by a worker that was killed waits for its claim to expire (two minutes,
// CLAIM_SECONDS in the function's store.ts) before another run takes it: the wait for recovery is longer
// than that, and one cut shorter (the stack tests) counts such mail as "claimed", not lost.
// Loopback only, bounded in count and time; Linux (signals, /proc).
//   npm run faults                               every fault, 30 enquiries/s, 20 s a phase
//   npm run faults -- --rate 10 --seconds 8      lighter
//   npm run faults -- --only function-killed     one fault (names: the first column)
// Exits 1 when anything was lost, a request got no answer within the limit (hung), or a process
// of the stack was left running after it stopped.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { startStack } from "../local-stack/stack.mjs";

/** A request with no answer after this long counts as hung (the platform lets a function run 150 s). */
const ANSWER_LIMIT_MS = 30_000;

/** The faults, in the order they run; `inject` returns once the fault is over (the part is back or resumed). */
export const FAULTS = [
  { name: "none", what: "no fault (baseline)", inject: async () => {} },
  {
    name: "postgres-paused",
    what: "PostgreSQL paused (SIGSTOP, every process of it)",
    inject: async (stack, { pauseMs }) => pauseTree(stack.db.pid, pauseMs),
  },
  {
    name: "postgres-restarted",
    what: "PostgreSQL restarted (fast shutdown, start)",
    inject: async (stack) => {
      await stack.db.pause();
      await stack.db.resume();
    },
  },
  {
    name: "function-killed",
    what: "the function killed (SIGKILL); its supervisor starts it again",
    inject: async (stack) => {
      const before = stack.fn.restarts;
      process.kill(stack.fn.child.pid, "SIGKILL");
      await until(() => stack.fn.restarts > before, 30_000);
    },
  },
  {
    name: "catcher-paused",
    what: "the SMTP catcher paused (SIGSTOP)",
    inject: async (stack, { pauseMs }) => pauseTree(stack.mail.pid, pauseMs),
  },
  {
    name: "catcher-killed",
    what: "the SMTP catcher killed (SIGKILL), back after the pause",
    inject: async (stack, { pauseMs }) => {
      process.kill(stack.mail.pid, "SIGKILL");
      await sleep(pauseMs);
      await stack.restartMail();
    },
  },
  {
    name: "cpu-starved",
    what: "CPU starved (4 busy loops for the pause)",
    inject: async (stack, { pauseMs }) => {
      const loops = Array.from({ length: 4 }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
      await sleep(pauseMs);
      await Promise.all(loops.map((loop) => new Promise((resolve) => (loop.once("exit", resolve), loop.kill("SIGKILL")))));
    },
  },
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await sleep(200);
  }
  return true;
}

/** The process `pid` and every process below it (Linux /proc), parents first. */
function processTree(pid) {
  const parents = new Map();
  for (const entry of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // ended meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree.filter((p) => parents.has(p));
}

/** Pauses a process with everything below it (PostgreSQL's backends are the postmaster's children). */
async function pauseTree(pid, ms) {
  const tree = processTree(pid);
  for (const p of tree) process.kill(p, "SIGSTOP");
  try {
    await sleep(ms);
  } finally {
    for (const p of tree) process.kill(p, "SIGCONT");
  }
}

/**
 * The delivery key and Message-ID of every mail kept in the catcher's folder. A mail's file never changes
 * once its envelope (<id>.json, written last) is there, so each is read once; the cache is per folder.
 */
const headersOf = new Map();
function caughtMail(dir) {
  const header = (head, name) => new RegExp(`^${name}:[ \\t]*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  const files = new Set(readdirSync(dir));
  const mails = [];
  const byId = [...files].sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
  for (const file of byId) {
    if (!file.endsWith(".eml") || !files.has(file.replace(/\.eml$/, ".json"))) continue;
    const where = path.join(dir, file);
    if (!headersOf.has(where)) {
      const head = readFileSync(where, "latin1")
        .split(/\r?\n\r?\n/, 1)[0]
        .replace(/\r?\n[ \t]+/g, " ");
      headersOf.set(where, { key: header(head, "X-Delivery-Key"), messageId: header(head, "Message-ID") });
    }
    mails.push(headersOf.get(where));
  }
  return mails;
}

/**
 * Runs the faults (all, or `only`) against one stack, each phase `seconds` long at `rate` enquiries a
 * second with its fault injected after a quarter of it, and returns one row per phase.
 */
export async function runFaults({ rate = 30, seconds = 20, pauseMs = 8000, recoveryMs = 150_000, only, log = () => {} } = {}) {
  const faults = only ? FAULTS.filter((f) => only.includes(f.name)) : FAULTS;
  const folder = mkdtempSync(path.join(tmpdir(), "studio-faults-"));
  const mailDir = path.join(folder, "mail");
  const total = Math.ceil(rate * seconds * faults.length) + 10;
  let failure;
  const stack = await startStack({
    site: false,
    mail: "process",
    mailDir,
    // Redelivery every 2 s and retries due soon after a failure, so the suite's waits stay short (the
    // production schedule is pg_cron's, every few minutes, with retries from a minute on).
    schedule: 2,
    env: {
      function: {
        RATE_LIMIT_PER_CLIENT: String(total),
        RATE_LIMIT_GLOBAL: String(total),
        ENQUIRIES_PER_DAY_MAX: String(total),
        CONFIRMATIONS_PER_SENDER_PER_DAY: String(total),
        MIN_FILL_MS: "0",
        RETRY_BASE_SECONDS: "2",
        RETRY_MAX_SECONDS: "10",
        MAIL_TIMEOUT_MS: "3000",
      },
    },
    log: (line) => log(`  [stack] ${line}`),
    // The catcher killed on purpose comes back in its fault; any other part that ends is a failure.
    onPartExit: (part, how) => {
      if (part !== "the SMTP catcher") failure = `${part} ${how}`;
    },
  });
  const stackPid = process.pid;
  const sql = postgres(stack.db.url, { max: 2, onnotice: () => {} });
  const url = new URL(`${stack.functionUrl}/functions/v1/send-contact-email`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const rows = [];
  let orphans = 0;
  let n = 0;
  try {
    for (const fault of faults) {
      log(`${fault.name}: ${fault.what}`);
      const keys = [];
      const started = performance.now();
      const requests = [];
      const injection = sleep((seconds * 1000) / 4).then(() => fault.inject(stack, { pauseMs }));
      for (let i = 0; i < rate * seconds; i++) {
        const due = started + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        const key = crypto.randomUUID();
        keys.push(key);
        requests.push(enquiry(url, agent, key, n++, due));
      }
      await injection;
      const answers = await Promise.all(requests);
      if (failure) throw new Error(failure);

      // Recovery: every stored enquiry of this phase has both its mails in the catcher's folder.
      const storedIds = async () =>
        (await sql`select id from contact_enquiries where idempotency_key = any(${keys}::uuid[])`).map((r) => r.id);
      const mailedOf = (ids) => {
        const keysCaught = new Set(caughtMail(mailDir).map((m) => m.key));
        return ids.filter((id) => keysCaught.has(`${id}:studio`) && keysCaught.has(`${id}:confirmation`));
      };
      const recovery = performance.now();
      await until(async () => {
        const ids = await storedIds();
        return mailedOf(ids).length === ids.length;
      }, recoveryMs);
      const ids = await storedIds();
      const mailedIds = new Set(mailedOf(ids));
      const mailed = mailedIds.size;
      const mine = new Set(ids.flatMap((id) => [`${id}:studio`, `${id}:confirmation`]));
      const mails = caughtMail(mailDir).filter((m) => mine.has(m.key));
      const firstId = new Map();
      let repeated = 0;
      let sameId = 0;
      for (const mail of mails) {
        if (!firstId.has(mail.key)) firstId.set(mail.key, mail.messageId);
        else {
          repeated++;
          if (mail.messageId && mail.messageId === firstId.get(mail.key)) sameId++;
        }
      }
      const answeredKeys = new Set(answers.filter((a) => a.status >= 200 && a.status < 300).map((a) => a.key));
      const notMailed = ids.filter((id) => !mailedIds.has(id));
      const [{ claimed }] = await sql`select count(distinct enquiry_id)::int as claimed from contact_deliveries
        where enquiry_id = any(${notMailed}::uuid[]) and status = 'sending' and locked_until > now()`;
      const storedKeys = new Set(
        (await sql`select idempotency_key::text as k from contact_enquiries where id = any(${ids}::uuid[])`).map((r) => r.k),
      );
      const noAnswer = answers.filter((a) => a.status === undefined);
      const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);
      rows.push({
        fault: fault.name,
        sent: answers.length,
        answered: answeredKeys.size,
        refused: answers.filter((a) => a.status >= 300).length,
        noAnswer: noAnswer.length,
        hung: noAnswer.filter((a) => a.error === "timeout").length,
        stored: ids.length,
        mailed,
        repeatedByKey: repeated,
        repeatedWithFirstMessageId: sameId,
        claimed,
        lost: [...answeredKeys].filter((k) => !storedKeys.has(k)).length + (ids.length - mailed - claimed),
        p99Ms: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
        recoverySeconds: +((performance.now() - recovery) / 1000).toFixed(1),
        statuses: tally(answers.map((a) => a.status ?? a.error)),
      });
      log(`  ${JSON.stringify(rows.at(-1))}`);
    }
  } finally {
    agent.destroy();
    await sql.end();
    const parts = processTree(stackPid).filter((p) => p !== stackPid);
    await stack.stop();
    await until(async () => processTree(stackPid).filter((p) => parts.includes(p)).length === 0, 10_000);
    orphans = processTree(stackPid).filter((p) => parts.includes(p)).length;
    rmSync(folder, { recursive: true, force: true });
  }
  return { rows, orphans };
}

const tally = (values) => Object.fromEntries([...new Set(values)].map((v) => [v, values.filter((x) => x === v).length]));

/** One enquiry over HTTP; resolves with its status, or the error that stood for an answer, and its latency from when it was due. */
function enquiry(url, agent, key, i, due) {
  const body = JSON.stringify({ name: `Fault ${i}`, email: `fault${i}@example.com`, projectTitle: `Fault suite ${i}`, projectDetails: "" });
  return new Promise((resolve) => {
    const done = (result) => resolve({ key, ms: performance.now() - due, ...result });
    const request = http.request(url, {
      method: "POST",
      agent,
      timeout: ANSWER_LIMIT_MS,
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "idempotency-key": key,
        "x-form-fill-ms": "5000",
      },
    });
    request.once("response", (response) => {
      response.resume();
      response.once("end", () => done({ status: response.statusCode }));
      response.once("error", (error) => done({ error: error.code ?? "error" }));
    });
    request.once("timeout", () => request.destroy(Object.assign(new Error("timeout"), { code: "timeout" })));
    request.once("error", (error) => done({ error: error.code ?? "error" }));
    request.end(body);
  });
}

const COLUMNS = [
  ["fault", "fault"],
  ["sent", "sent"],
  ["answered", "2xx"],
  ["refused", "refused"],
  ["noAnswer", "no answer"],
  ["hung", "hung"],
  ["stored", "stored"],
  ["mailed", "mailed"],
  ["claimed", "claimed"],
  ["repeatedByKey", "dup (key)"],
  ["repeatedWithFirstMessageId", "dup (same Message-ID)"],
  ["lost", "lost"],
  ["p99Ms", "p99 ms"],
  ["recoverySeconds", "recovery s"],
];

/** The table, as Markdown (for a terminal and for an issue's closing note alike). */
export function faultTable(rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [
    line(COLUMNS.map(([, title]) => title)),
    line(COLUMNS.map(() => "---")),
    ...rows.map((row) => line(COLUMNS.map(([key]) => row[key]))),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: args } = parseArgs({
    options: {
      rate: { type: "string", default: "30" },
      seconds: { type: "string", default: "20" },
      pause: { type: "string", default: "8" },
      only: { type: "string", multiple: true },
    },
  });
  const { rows, orphans } = await runFaults({
    rate: Number(args.rate),
    seconds: Number(args.seconds),
    pauseMs: Number(args.pause) * 1000,
    only: args.only,
    log: (line) => console.log(line),
  });
  console.log(`\n${faultTable(rows)}\n`);
  for (const row of rows)
    if (Object.keys(row.statuses).some((s) => s !== "200")) console.log(`${row.fault}: ${JSON.stringify(row.statuses)}`);
  console.log(`processes of the stack left running after it stopped: ${orphans}`);
  const failed = rows.some((r) => r.lost > 0 || r.hung > 0) || orphans > 0;
  if (failed) console.error("FAILED: an enquiry was lost, a request hung, or a process was left running");
  process.exit(failed ? 1 : 0);
}
