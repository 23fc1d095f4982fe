// The two Deno versions the function is held to, both from npm:
//   DENO       the current Deno (the project's `deno` package): what developers and `npm run stack` use;
//   DENO_EDGE  the Deno that Supabase's edge runtime embeds (2.1.4, installed in scripts/supabase-platform
//              by its install.sh): what hosted Edge Functions run.
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const binary = (modules) => path.join(modules, "deno", process.platform === "win32" ? "deno.exe" : "deno");

export const DENO = binary(path.join(ROOT, "node_modules"));
export const DENO_EDGE = binary(path.join(ROOT, "scripts/supabase-platform/node_modules"));
/** The config (import map) of the function, as both deploy paths upload it. */
export const FUNCTION_CONFIG = "supabase/functions/send-contact-email/deno.json";

/**
 * Environment for a Deno run. Deno 2.1 does not trust the system's CA store unless told to: where a
 * TLS proxy re-signs traffic (this machine), npm: downloads fail without it.
 */
export function denoEnv(env = {}) {
  return { NO_COLOR: "1", DENO_TLS_CA_STORE: "system", ...process.env, ...env };
}
