// The whole local stack in one command, on embedded defaults (no Postgres or Docker to install):
//   PGlite (embedded Postgres) behind its socket server, with supabase/migrations applied
//   an SMTP catcher with a page of caught mail
//   send-contact-email under Deno, at the URL shape supabase-js calls
//   the site (production build) under remix-serve
// Ctrl-C stops everything. Ports follow `supabase start` where it has one.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { migrate } from "./lib/migrate.mjs";
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

const stops = [];
async function stopAll(code = 0) {
  for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => undefined);
  process.exit(code);
}
process.once("SIGINT", () => (console.log("\nStopping…"), stopAll(0)));
process.once("SIGTERM", () => stopAll(0));

try {
  // Embedded Postgres; STACK_DB_DIR keeps the data between runs (default: in memory).
  const db = new PGlite(process.env.STACK_DB_DIR);
  await db.waitReady;
  const dbServer = new PGLiteSocketServer({ db, port: PORTS.db, host: "127.0.0.1", maxConnections: 16 });
  await dbServer.start();
  stops.push(() => db.close(), () => dbServer.stop());
  const databaseUrl = `postgres://postgres@127.0.0.1:${PORTS.db}/postgres`;
  const [{ exists }] = (await db.query(`select to_regclass('public.contact_enquiries') is not null as exists`)).rows;
  if (!exists) await migrate(databaseUrl);

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
      // Every local request comes from 127.0.0.1: keep the per-client limit out of a developer's way.
      RATE_LIMIT_PER_CLIENT: process.env.RATE_LIMIT_PER_CLIENT ?? "100",
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
    Database          ${databaseUrl}   (PGlite, ${process.env.STACK_DB_DIR ? `data in ${process.env.STACK_DB_DIR}` : "in memory"})
`);
} catch (error) {
  console.error(error);
  await stopAll(1);
}
