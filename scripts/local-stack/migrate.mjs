// Applies supabase/migrations to a plain PostgreSQL, after creating what Supabase would already have:
// the API roles and its default grants (so the migrations' revokes are really put to the test).
// Applied versions are recorded where the Supabase CLI records them (supabase_migrations.schema_migrations),
// so a kept database (the stack's data folder) gets exactly the migrations it has not seen.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";

const root = path.resolve(import.meta.dirname, "../..");

export const SUPABASE_BOOTSTRAP = `
do $$ begin
  if not exists (select from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then create role authenticated nologin noinherit; end if;
  if not exists (select from pg_roles where rolname = 'service_role') then create role service_role nologin noinherit bypassrls; end if;
end $$;
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
`;

/**
 * Migrations renamed after databases recorded them, old version to new: the same SQL, so a database that
 * applied the old name gets its record renamed, not the migration again. The baseline was first named
 * 20261126000000, a day after it was written, so `supabase migration new` made names that sorted before
 * it (docs/decisions/022; a hosted project runs the README's `supabase migration repair` instead).
 */
export const RENAMED_VERSIONS = { 20261126000000: "20261125000000" };

/** The migration files in order; `version` is the timestamp prefix, as the Supabase CLI reads it. */
export function migrationFiles() {
  const dir = path.join(root, "supabase/migrations");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => {
      const [, version, name] = /^(\d+)_(.*)\.sql$/.exec(f) ?? [];
      if (!version) throw new Error(`supabase/migrations/${f}: the name must be <timestamp>_<name>.sql`);
      return { file: f, version, name, sql: readFileSync(path.join(dir, f), "utf8") };
    });
}

/**
 * Runs the bootstrap, then (unless `only: "bootstrap"`) each migration not yet recorded, each in its own
 * transaction. Returns the versions applied.
 */
export async function migrate(url, { only = "all" } = {}) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const applied = [];
  try {
    await sql.unsafe(SUPABASE_BOOTSTRAP);
    if (only === "bootstrap") return applied;
    const done = new Set((await sql`select version from supabase_migrations.schema_migrations`).map((r) => r.version));
    for (const [old, renamed] of Object.entries(RENAMED_VERSIONS)) {
      if (!done.has(old) || done.has(renamed)) continue;
      await sql`update supabase_migrations.schema_migrations set version = ${renamed} where version = ${old}`;
      done.delete(old);
      done.add(renamed);
      console.log(`migrate: the database recorded migration ${old}, now named ${renamed}: its record is renamed (docs/decisions/022)`);
    }
    const files = migrationFiles();
    // As `supabase db push` does: a database with versions this checkout does not have was made from
    // another history (the migrations before the baseline of docs/decisions/021, or another branch).
    const unknown = [...done].filter((version) => !files.some((f) => f.version === version)).sort();
    if (unknown.length > 0) {
      throw new Error(
        `the database has migrations that supabase/migrations does not (${unknown.join(", ")}): it was made from another ` +
          "history. For the local stack's data: `npm run stack -- --fresh` starts it again (docs/decisions/021).",
      );
    }
    for (const migration of files) {
      if (done.has(migration.version)) continue;
      await sql.begin(async (tx) => {
        await tx.unsafe(migration.sql);
        await tx`insert into supabase_migrations.schema_migrations (version, name) values (${migration.version}, ${migration.name})`;
      });
      applied.push(migration.version);
    }
  } finally {
    await sql.end();
  }
  return applied;
}
