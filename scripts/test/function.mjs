// Runs the Deno tests of send-contact-email (tests/function/) against the local stack's real
// PostgreSQL and SMTP catcher (scripts/local-stack/stack.mjs; the tests build the function's handler
// themselves, so no function process runs). The shared contract, also used by the app, is tested with Vitest.
//   node scripts/test/function.mjs                  current Deno
//   node scripts/test/function.mjs --edge-runtime   the Deno that Supabase's edge runtime embeds (2.1.x)
// Other arguments go to `deno test` (for example --filter).
import { execFileSync, spawn } from "node:child_process";
import { DENO, DENO_EDGE, denoEnv, FUNCTION_FLAGS } from "../local-stack/deno.mjs";
import { freePort } from "../local-stack/ports.mjs";
import { ROOT } from "../local-stack/processes.mjs";
import { REJECTED_DOMAIN } from "../local-stack/smtp-catcher.mjs";
import { startStack } from "../local-stack/stack.mjs";

const edge = process.argv.includes("--edge-runtime");
const extra = process.argv.slice(2).filter((a) => a !== "--edge-runtime");
// The edge runtime's Deno sits beside the pinned Supabase CLI, installed on first use (quick after).
if (edge) execFileSync("bash", ["scripts/supabase-cli/install.sh"], { cwd: ROOT, stdio: "inherit" });
const stack = await startStack({ fn: false, site: false });
let status = 1;
try {
  // Async on purpose: the SMTP catcher lives in this process and must keep answering.
  const child = spawn(
    edge ? DENO_EDGE : DENO,
    [
      "test",
      ...FUNCTION_FLAGS,
      // deno.lock is written by the current Deno in a format Deno 2.1 cannot read.
      ...(edge ? ["--no-lock"] : []),
      "tests/function/",
      ...extra,
    ],
    {
      cwd: ROOT,
      stdio: "inherit",
      env: denoEnv({
        TEST_FUNCTION_ENV: JSON.stringify(stack.functionEnv),
        TEST_DATABASE_URL: stack.db.url,
        TEST_CATCHER_API: stack.mail.apiUrl,
        TEST_CLOSED_PORT: String(await freePort()),
        TEST_REJECTED_DOMAIN: REJECTED_DOMAIN,
      }),
    },
  );
  status = await new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
} finally {
  await stack.stop();
}
process.exit(status);
