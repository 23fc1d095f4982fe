// Load test of send-contact-email through real HTTP, a real PostgreSQL 15 and the SMTP catcher:
// N enquiries at concurrency C (default 500 at 20). Prints throughput and latency percentiles, then
// checks that exactly N rows were stored and 2N mails caught. Exits 1 if not.
//   npm run load -- --total 500 --concurrency 20
import { parseArgs } from "node:util";
import postgres from "postgres";
import { startPostgres } from "./lib/postgres.mjs";
import { freePort } from "./lib/ports.mjs";
import { startFunction } from "./lib/processes.mjs";
import { startSmtpCatcher } from "./lib/smtp-catcher.mjs";

const { values: args } = parseArgs({
  options: { total: { type: "string", default: "500" }, concurrency: { type: "string", default: "20" }, json: { type: "boolean" } },
});

export async function loadTest({ total, concurrency }) {
  const pg = await startPostgres();
  const [smtpPort, httpPort, fnPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const catcher = await startSmtpCatcher({ smtpPort, httpPort });
  const fn = await startFunction({
    port: fnPort,
    env: {
      SUPABASE_DB_URL: pg.url,
      SMTP_PORT: String(smtpPort),
      // One load generator is one client: lift the limits that would (rightly) stop it.
      RATE_LIMIT_PER_CLIENT: String(total * 2),
      RATE_LIMIT_GLOBAL: String(total * 2),
      MIN_FILL_MS: "0",
    },
  });
  const url = `${fn.url}/functions/v1/send-contact-email`;
  const latencies = [];
  const statuses = {};
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < total; i = next++) {
      const t0 = performance.now();
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": crypto.randomUUID(), "x-form-fill-ms": "5000" },
        body: JSON.stringify({ name: `Load ${i}`, email: `load${i}@example.com`, projectTitle: `Load test ${i}`, projectDetails: "x".repeat(500) }),
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - t0);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  // Mails go out after each answer: give the last ones time to arrive.
  const deadline = Date.now() + 30_000;
  while (catcher.count < total * 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

  const sql = postgres(pg.url, { max: 1 });
  const [{ count }] = await sql`select count(*)::int from contact_enquiries`;
  const [{ pending }] = await sql`select count(*)::int as pending from contact_deliveries where status <> 'sent'`;
  const pendingErrors = await sql`select status, left(coalesce(last_error, '(none)'), 120) as error, count(*)::int
    from contact_deliveries where status <> 'sent' group by 1, 2 order by 3 desc limit 5`;
  await sql.end();
  await fn.stop();
  await catcher.stop();
  pg.stop();

  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return {
    total,
    concurrency,
    seconds: +seconds.toFixed(2),
    perSecond: +(total / seconds).toFixed(1),
    p50: +pct(50).toFixed(1),
    p99: +pct(99).toFixed(1),
    statuses,
    rows: count,
    mails: catcher.count,
    pendingDeliveries: pending,
    pendingErrors: pendingErrors.map((r) => `${r.count} ${r.status}: ${r.error}`),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await loadTest({ total: Number(args.total), concurrency: Number(args.concurrency) });
  if (args.json) console.log(JSON.stringify(result));
  else {
    console.log(`send-contact-email load: ${result.total} enquiries at concurrency ${result.concurrency}`);
    console.log(`  throughput  ${result.perSecond} enquiries/s (${result.seconds} s)`);
    console.log(`  latency     p50 ${result.p50} ms, p99 ${result.p99} ms`);
    console.log(`  statuses    ${JSON.stringify(result.statuses)}`);
    console.log(`  stored      ${result.rows} rows (expected ${result.total})`);
    console.log(`  mails       ${result.mails} caught (expected ${result.total * 2}), ${result.pendingDeliveries} pending`);
    for (const line of result.pendingErrors) console.log(`              ${line}`);
  }
  const ok = result.rows === result.total && result.mails === result.total * 2 && result.statuses[200] === result.total;
  if (!ok) {
    console.error("FAILED: stored rows or caught mails do not match the enquiries sent");
    process.exit(1);
  }
}
