// Temporary databases (every test's stack) start as copies of one made once for this checkout's
// migrations (scripts/local-stack/postgres.mjs): each is a database of its own, with every migration,
// and what one test writes never reaches the next. A damaged template is made again, and a program that
// ends while its database starts leaves nothing.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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
  await first`insert into private.undeliverable_addresses (address, reason, source) values ('first@example.com', 'test', 'bounced')`;
  const second = await database();

  const versions = migrationFiles().map((m: { version: string }) => m.version);
  expect(await recorded(first)).toEqual(versions);
  expect(await recorded(second)).toEqual(versions);
  expect(await blocked(first)).toBe(1);
  expect(await blocked(second)).toBe(0);
});

const POSTGRES_MODULE = path.resolve(import.meta.dirname, "../../scripts/local-stack/postgres.mjs");
/** Runs `body` in a program of its own whose temporary folder (templates, databases) is `tmp`. */
function program(tmp: string, body: string) {
  return spawnSync(
    process.execPath,
    ["--input-type=module", "-e", `import { startPostgres } from ${JSON.stringify(POSTGRES_MODULE)}; ${body}`],
    {
      encoding: "utf8",
      env: { ...process.env, TMPDIR: tmp },
      timeout: 60_000,
    },
  );
}
/**
 * A temporary folder of this file's own, for the two tests below (the second starts from the template the
 * first leaves: making one costs an initdb); as root the server runs as `postgres`, which must read in it.
 */
const tmp = mkdtempSync(path.join(tmpdir(), "template-test-"));
chmodSync(tmp, 0o755);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
/** The temporary databases' folders under `tmp` (the templates' folder aside). */
const databasesIn = (tmp: string) =>
  readdirSync(tmp).filter((name) => name.startsWith("studio-pg-") && !name.startsWith("studio-pg-templates"));
const migrationsOf = `const db = await startPostgres(); const { default: postgres } = await import("postgres");
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  console.log((await sql\`select count(*)::int as n from supabase_migrations.schema_migrations\`)[0].n);
  await sql.end(); await db.stop();`;

it("a damaged template (a file of it removed, or half of it) is made again, and every database still starts with every migration", () => {
  const count = String(migrationFiles().length);
  expect(program(tmp, migrationsOf).stdout.trim()).toBe(count);
  const [templates] = readdirSync(tmp).filter((name) => name.startsWith("studio-pg-templates"));
  const template = path.join(tmp, templates!, readdirSync(path.join(tmp, templates!))[0]!);

  rmSync(path.join(template, "global/pg_control"));
  expect(program(tmp, migrationsOf).stdout.trim(), "after a file of the template was removed").toBe(count);
  rmSync(path.join(template, "PG_VERSION"), { force: true });
  expect(program(tmp, migrationsOf).stdout.trim(), "after the template was half removed").toBe(count);
  expect(existsSync(path.join(template, "global/pg_control")), "the template, made again").toBe(true);
  expect(databasesIn(tmp), "databases left").toEqual([]);
}, 120_000);

it("a program that ends while its database starts leaves neither the server nor its folder", () => {
  program(tmp, "const db = await startPostgres(); await db.stop();"); // the template, there first (made, if this runs alone)
  for (const ms of [50, 150, 300, 450, 600, 900]) {
    const ended = program(
      tmp,
      `setTimeout(() => { throw new Error("ended at ${ms} ms"); }, ${ms}); await startPostgres(); setInterval(() => {}, 1000);`,
    );
    expect(ended.stderr).toContain(`ended at ${ms} ms`);
    const left = serversUnder(tmp);
    expect(left, `at ${ms} ms: servers left`).toEqual([]);
    expect(databasesIn(tmp), `at ${ms} ms: folders left`).toEqual([]);
  }
}, 120_000);

/** PostgreSQL servers whose data is under `folder` (the postmaster's command line names it), once they had a moment to stop. */
function serversUnder(folder: string) {
  const until = Date.now() + 5000;
  let found: string[] = [];
  do {
    found = spawnSync("pgrep", ["-f", `postgres -D ${folder}`], { encoding: "utf8" })
      .stdout.split("\n")
      .filter(Boolean);
    if (found.length === 0) break;
    spawnSync("sleep", ["0.2"]);
  } while (Date.now() < until);
  return found;
}
