// Applies supabase/migrations to a plain Postgres, after creating what Supabase would already have:
// the API roles and its default grants (so the migrations' revokes are really put to the test).
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
`;

export function migrationFiles() {
  const dir = path.join(root, "supabase/migrations");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => ({ name: f, sql: readFileSync(path.join(dir, f), "utf8") }));
}

/** Runs the bootstrap and every migration, each in its own transaction. */
export async function migrate(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(SUPABASE_BOOTSTRAP);
    for (const { sql: text } of migrationFiles()) await sql.begin((tx) => tx.unsafe(text));
  } finally {
    await sql.end();
  }
}
