// The two Deno versions the function is held to, both from npm:
//   DENO       the current Deno (the project's `deno` package): what developers and `npm run stack` use;
//   DENO_EDGE  the Deno that Supabase's edge runtime embeds (2.1.4, installed beside the pinned Supabase
//              CLI by scripts/supabase-cli/install.sh): what hosted Edge Functions run.
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const binary = (modules) => path.join(modules, "deno", process.platform === "win32" ? "deno.exe" : "deno");

export const DENO = binary(path.join(ROOT, "node_modules"));
export const DENO_EDGE = binary(path.join(ROOT, "scripts/supabase-cli/node_modules"));
/** The function's folder and its config (import map), as both deploy paths upload it. */
export const FUNCTION_DIR = "supabase/functions/send-contact-email";
export const FUNCTION_CONFIG = `${FUNCTION_DIR}/deno.json`;

/**
 * What the function may do under Deno (network, its variables, its files, the OS facts nodemailer
 * reads), with the function's config (import map): the flags every run and test of it takes.
 */
export const FUNCTION_FLAGS = ["--allow-net", "--allow-env", "--allow-read", "--allow-sys", "--config", FUNCTION_CONFIG];

/**
 * Environment for a Deno run. Deno 2.1 trusts only its own CA list unless told otherwise; where a TLS
 * proxy re-signs traffic (machines without direct internet), `npm:` downloads then fail. The system
 * store is used when DENO_TLS_CA_STORE is not set (decision 015: machine workarounds behind variables).
 */
export function denoEnv(env = {}) {
  return { NO_COLOR: "1", DENO_TLS_CA_STORE: "system", ...process.env, ...env };
}
