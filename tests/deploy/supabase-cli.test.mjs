// The deploy guide, run with the Supabase CLI that scripts/supabase-cli pins (what `npm run supabase` runs),
// on a copy of this repo's supabase/ folder:
// - every README command gets past supabase/config.toml (without Docker, `start` and `functions serve`
//   may only fail for want of Docker; `link`, `secrets set`, `functions deploy` only for want of network);
// - `db push` applies supabase/migrations to a new PostgreSQL of the declared major version, and the local
//   stack's migrate.mjs reads the history it wrote (and refuses another one, as db push does);
// - `functions deploy` without Docker uploads the function's import map, and exactly those uploaded
//   files type-check on their own under the edge runtime's Deno (2.1.x).
// Run: npm run test:deploy (node --test tests/deploy/)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import postgres from "postgres";
import { DENO_EDGE, denoEnv } from "../../scripts/local-stack/deno.mjs";
import { migrate, migrationFiles, RENAMED_VERSIONS } from "../../scripts/local-stack/migrate.mjs";
import { startPostgres } from "../../scripts/local-stack/postgres.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SUPABASE_CLI_DIR = path.join(ROOT, "scripts/supabase-cli");
const CLI = path.join(SUPABASE_CLI_DIR, "node_modules/.bin/supabase");
const FUNCTION = "send-contact-email";
// A syntactically valid token and project ref: the CLI does everything it can offline, then needs the network.
const OFFLINE = { SUPABASE_ACCESS_TOKEN: `sbp_${"0".repeat(40)}` };
const PROJECT_REF = "abcdefghijklmnopqrst";
const CONFIG_REFUSED = /config\.toml|no longer supported|invalid config|failed to (parse|load)|Missing required field/i;

let work;
function cli(args, env = {}) {
  const result = spawnSync(CLI, args, { cwd: work, encoding: "utf8", timeout: 60_000, env: { ...process.env, ...env } });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe("the pinned Supabase CLI, on this repo", () => {
  before(() => {
    spawnSync("bash", [path.join(SUPABASE_CLI_DIR, "install.sh")], { stdio: "inherit" });
    work = mkdtempSync(path.join(tmpdir(), "studio-cli-"));
    cpSync(path.join(ROOT, "supabase"), path.join(work, "supabase"), {
      recursive: true,
      // What the CLI or a developer leaves behind locally is not part of the repo.
      filter: (source) => !/[/\\](\.temp|\.branches|\.env)$/.test(source),
    });
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test("is the version scripts/supabase-cli pins", () => {
    const pinned = JSON.parse(readFileSync(path.join(SUPABASE_CLI_DIR, "package.json"), "utf8")).devDependencies.supabase;
    assert.equal(cli(["--version"]).output.trim().split("\n")[0], pinned);
  });

  for (const command of [["start"], ["functions", "serve"]]) {
    test(`\`supabase ${command.join(" ")}\` accepts config.toml and stops only for want of Docker`, () => {
      const { output } = cli(command);
      assert.doesNotMatch(output, CONFIG_REFUSED);
      assert.match(output, /docker/i);
    });
  }

  for (const command of [
    ["link", "--project-ref", PROJECT_REF],
    ["secrets", "set", "--env-file", "ENV", "--project-ref", PROJECT_REF, "--yes"],
  ]) {
    test(`\`supabase ${command[0]} ${command[1]}\` accepts config.toml and stops only for want of network`, () => {
      const envFile = path.join(work, "secrets.env");
      writeFileSync(envFile, "MAIL_FROM=Studio <bookings@studio.example>\n");
      const { status, output } = cli(
        command.map((a) => (a === "ENV" ? envFile : a)),
        OFFLINE,
      );
      assert.notEqual(status, 0);
      assert.doesNotMatch(output, CONFIG_REFUSED);
      assert.match(output, /transport|network|fetch|ENOTFOUND|EAI_AGAIN|connect/i);
    });
  }

  test("`supabase db push` applies every migration to a new PostgreSQL of the declared major, once", async () => {
    // A new project: Supabase's roles and grants, no schema of ours.
    const pg = await startPostgres({ migrations: false });
    try {
      const first = cli(["db", "push", `--remote=${pg.url}`, "--yes"]);
      assert.equal(first.status, 0, first.output);
      for (const { file } of migrationFiles()) assert.match(first.output, new RegExp(`Applying migration ${file}`));
      const second = cli(["db", "push", `--remote=${pg.url}`, "--yes"]);
      assert.equal(second.status, 0, second.output);
      assert.match(second.output, /up to date/i);
      const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
      try {
        const [row] =
          await sql`select to_regclass('private.undelivered_mail') is not null as view, current_setting('server_version_num')::int / 10000 as major`;
        assert.equal(row.view, true);
        assert.equal(row.major, Number(/major_version\s*=\s*(\d+)/.exec(readFileSync(path.join(ROOT, "supabase/config.toml"), "utf8"))[1]));
        // The local stack reads the history `db push` wrote, and refuses one it does not know, as db push does.
        assert.deepEqual(await migrate(pg.url), [], "nothing left to apply");
        // A database that applied the baseline under its first name: its record is renamed, nothing applied again.
        for (const [old, renamed] of Object.entries(RENAMED_VERSIONS)) {
          await sql`update supabase_migrations.schema_migrations set version = ${old} where version = ${renamed}`;
          assert.deepEqual(await migrate(pg.url), [], `${old} is ${renamed}`);
          const versions = (await sql`select version from supabase_migrations.schema_migrations`).map((r) => r.version);
          assert.ok(versions.includes(renamed) && !versions.includes(old), versions.join(", "));
        }
        await sql`insert into supabase_migrations.schema_migrations (version, name) values ('20261122000000', 'contact_enquiries')`;
        await assert.rejects(migrate(pg.url), /another history/);
      } finally {
        await sql.end();
      }
    } finally {
      await pg.stop();
    }
  });

  describe("`supabase functions deploy` without Docker", () => {
    let uploaded;
    before(() => {
      const { output } = cli(["functions", "deploy", FUNCTION, "--project-ref", PROJECT_REF, "--yes", "--debug"], OFFLINE);
      assert.doesNotMatch(output, CONFIG_REFUSED);
      uploaded = [...output.matchAll(new RegExp(`Uploading asset \\(${FUNCTION}\\): (\\S+)`, "g"))].map((m) => m[1]).sort();
    });

    test("uploads the function, the shared contract and the import map", () => {
      assert.ok(uploaded.includes(`supabase/functions/${FUNCTION}/deno.json`), uploaded.join("\n"));
      assert.ok(uploaded.includes(`supabase/functions/${FUNCTION}/index.ts`));
      assert.ok(uploaded.includes("supabase/functions/_shared/contact-message.ts"));
      assert.ok(!uploaded.some((f) => f.endsWith(".test.ts")), "tests are not deployed");
    });

    // Under the Deno production runs; npm test's `deno check` (scripts/test/all.sh) types the same files, in place,
    // under this repo's.
    test("the uploaded files alone type-check under the edge runtime's Deno (2.1.x)", () => {
      const alone = mkdtempSync(path.join(tmpdir(), "studio-upload-"));
      try {
        for (const file of uploaded) {
          mkdirSync(path.dirname(path.join(alone, file)), { recursive: true });
          cpSync(path.join(work, file), path.join(alone, file));
        }
        const fn = path.join(alone, "supabase/functions", FUNCTION);
        const result = spawnSync(DENO_EDGE, ["check", "--no-lock", "--config", path.join(fn, "deno.json"), path.join(fn, "index.ts")], {
          cwd: alone,
          encoding: "utf8",
          env: denoEnv(),
          timeout: 120_000,
        });
        assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
      } finally {
        rmSync(alone, { recursive: true, force: true });
      }
    });
  });
});
