-- The current definition of every database object of send-contact-email, in the order they apply
-- (supabase/schemas/*.sql, top to bottom; config.toml's [db.migrations] schema_paths names them).
-- Edit these files to change the schema, and add the migration that reaches the new text
-- (README, "Function"): supabase/migrations is the history `db push` applies.
-- tests/function/schema-drift.test.ts applies both to scratch databases and fails when they differ.
--
-- Only the function (with the server-side database URL) touches any of this: RLS is on with no
-- policies, anon and authenticated have no grants, and the private schema is closed to them
-- (40_grants_and_rls.sql).

create schema if not exists private;
revoke all on schema private from public;
