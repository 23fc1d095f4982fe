// A migration's name is never after the day it was written (docs/decisions/022): `supabase migration new`
// names a file by the current UTC time, so a file dated later would sort after the next one written and be
// applied out of order. "Written" is the day of the commit that added the file (following renames, as
// git log --follow does), or today for a file not committed yet.
// Run: npm run test:deploy (node --test tests/deploy/)
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { migrationFiles } from "../../scripts/local-stack/migrate.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const utcDay = (date) => date.toISOString().slice(0, 10).replaceAll("-", "");

/** The UTC day of the commit that first added `file` (under any earlier name), or null if it is not committed. */
function addedOn(file) {
  const out = execFileSync("git", ["log", "--follow", "--diff-filter=A", "--format=%ct", "--", `supabase/migrations/${file}`], {
    cwd: ROOT,
    encoding: "utf8",
  }).trim();
  const first = out.split("\n").filter(Boolean).at(-1);
  return first ? utcDay(new Date(Number(first) * 1000)) : null;
}

test("no migration is named after the day it was written", () => {
  const files = migrationFiles();
  assert.ok(files.length > 0);
  for (const { file, version } of files) {
    const written = addedOn(file) ?? utcDay(new Date());
    assert.ok(version.slice(0, 8) <= written, `${file} is named for ${version.slice(0, 8)}, after the day it was written (${written})`);
  }
});

test("the baseline is the first migration", () => {
  assert.match(migrationFiles()[0].file, /_baseline\.sql$/);
});
