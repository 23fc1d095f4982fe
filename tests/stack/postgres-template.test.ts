// Temporary databases (every test's stack) start as copies of one made once for this checkout's
// migrations (scripts/local-stack/postgres.mjs): each is a database of its own, with every migration,
// and what one test writes never reaches the next.
import postgres from "postgres";
import { afterAll, expect, it } from "vitest";
import { migrationFiles } from "../../scripts/local-stack/migrate.mjs";
import { startPostgres } from "../../scripts/local-stack/postgres.mjs";

const started: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  for (const db of started) await db.stop();
});

async function database() {
  const db = await startPostgres();
  started.push(db);
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  started.push({ stop: () => sql.end() });
  return sql;
}

const recorded = async (sql: postgres.Sql) =>
  (await sql`select version from supabase_migrations.schema_migrations order by version`).map((r) => r.version);
const blocked = async (sql: postgres.Sql) => (await sql`select count(*)::int as n from private.undeliverable_addresses`)[0]!.n;

it("two temporary databases each have every migration, and what one stores the other never sees", async () => {
  const first = await database();
  await first`insert into private.undeliverable_addresses (mailbox, reason, source) values ('first@example.com', 'test', 'bounced')`;
  const second = await database();

  const versions = migrationFiles().map((m: { version: string }) => m.version);
  expect(await recorded(first)).toEqual(versions);
  expect(await recorded(second)).toEqual(versions);
  expect(await blocked(first)).toBe(1);
  expect(await blocked(second)).toBe(0);
});
