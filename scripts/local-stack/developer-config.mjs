// The developer's configuration for `npm run stack` and `npm run dev`, taken the way the ecosystem
// takes it, from lowest to highest:
//   1. the stack's local values (environment.mjs): what runs with no configuration at all;
//   2. the env files: supabase/functions/.env for the function (what `supabase functions serve` reads
//      by default, or with --env-file) and .env for the site (what `remix dev` reads);
//   3. the shell: a variable set where the command runs wins over both (as with dotenv and the
//      Supabase CLI, which never overwrite what is already set).
// Files are parsed by Node's own `util.parseEnv` (dotenv's format: comments, quotes, `export`), so a
// file works the same here as under `remix dev` and `supabase functions serve`.
//
// Two exceptions, each reported in the start banner:
// - Where the stack's own parts listen (its database, its SMTP catcher, its function and site URLs,
//   the site's mode) is the stack's, set from its ports: a value from a file or the shell for one of
//   those names would point the local site at a hosted project, or the function at Docker's
//   `host.docker.internal` (supabase/functions/.env.example), so it is left out. Ports move with
//   PORT, FUNCTION_PORT, DB_PORT, MAIL_UI_PORT and SMTP_PORT (environment.mjs).
// - ENQUIRY_RELAY_SECRET must be the same on both sides: set for one, it is used for both.
// A RESEND_API_KEY given without MAIL_TRANSPORT sends mail through Resend, as a deployment does; the
// function's own checks (config.ts) say whether the key can work.
// Tests start the stack without this module (stack.mjs), so a developer's files never change a test.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { DEFAULT_PORTS, portsToEnv } from "./environment.mjs";

/** Each side's env file, relative to the repository (or STACK_ENV_DIR). */
export const ENV_FILES = Object.freeze({ function: "supabase/functions/.env", site: ".env" });

/** Names that say where the stack's own parts are: always the stack's. */
export const STACK_WIRING = Object.freeze({
  function: ["SUPABASE_DB_URL", "DB_POOLER_URL", "SMTP_HOST", "SMTP_PORT", "DENO_SERVE_ADDRESS"],
  site: ["SUPABASE_URL", "SITE_URL", "SITE_ORIGINS", "PORT", "HOST", "NODE_ENV", "LOCAL_STACK"],
});

/** The shell's port variables move the stack's parts (environment.mjs, portsFromEnv): not configuration. */
const PORT_VARIABLES = Object.keys(portsToEnv(DEFAULT_PORTS));

/** Shared by the site and the function; they must agree. */
const SHARED = ["ENQUIRY_RELAY_SECRET"];

/** The variables of an env file, or undefined when there is none. */
export function readEnvFile(file) {
  return existsSync(file) ? parseEnv(readFileSync(file, "utf8")) : undefined;
}

/**
 * Every variable .env.example and supabase/functions/.env.example name, set or commented out
 * (`# MIN_FILL_MS=1500`): the shell's values for these are reported when they apply.
 */
export function documentedNames(root) {
  const names = new Set();
  for (const file of [".env.example", "supabase/functions/.env.example"]) {
    const text = existsSync(path.join(root, file)) ? readFileSync(path.join(root, file), "utf8") : "";
    for (const [, name] of text.matchAll(/^#?\s*(?:export\s+)?([A-Z][A-Z0-9_]*)=/gm)) names.add(name);
  }
  return names;
}

/**
 * What the developer's files and shell change, per side, over the stack's local values.
 * @param {object} options
 * @param {string} options.dir where the env files are (the repository)
 * @param {{ function: Record<string, string>, site: Record<string, string> }} options.local the stack's values
 * @param {Record<string, string | undefined>} [options.shell] the shell's variables
 * @param {Iterable<string>} [options.known] other names the shell may set for either side (documentedNames)
 * @param {{ function: readonly string[], site: readonly string[] }} [options.wiring] names that stay the stack's
 * @returns {{
 *   env: { function: Record<string, string>, site: Record<string, string> },
 *   files: { path: string, count: number }[],
 *   applied: { name: string, from: string }[],
 *   ignored: { name: string, from: string }[],
 *   warnings: string[],
 * }}
 */
export function developerConfig({ dir, local, shell = process.env, known = [], wiring = STACK_WIRING }) {
  const env = { function: {}, site: {} };
  const files = [];
  const applied = new Map();
  const ignored = new Map();
  for (const side of /** @type {const} */ (["function", "site"])) {
    const fromFile = readEnvFile(path.join(dir, ENV_FILES[side])) ?? {};
    if (existsSync(path.join(dir, ENV_FILES[side]))) files.push({ path: ENV_FILES[side], count: Object.keys(fromFile).length });
    // The shell only needs passing on for names the stack or the file would otherwise set: every other
    // variable of the shell reaches the process anyway (processes.mjs).
    const names = new Set([...Object.keys(local[side]), ...Object.keys(fromFile), ...known]);
    for (const name of names) {
      const inShell = shell[name] !== undefined && !PORT_VARIABLES.includes(name);
      const [value, from] = inShell ? [shell[name], "shell"] : [fromFile[name], ENV_FILES[side]];
      if (value === undefined) continue;
      if (wiring[side].includes(name)) {
        ignored.set(name, from);
        continue;
      }
      env[side][name] = value;
      if (value !== local[side][name]) applied.set(name, from);
    }
  }

  const warnings = [];
  for (const name of SHARED) {
    const [fn, site] = [env.function[name], env.site[name]];
    if (fn === undefined && site !== undefined) env.function[name] = site;
    else if (site === undefined && fn !== undefined) env.site[name] = fn;
    else if (fn !== undefined && fn !== site)
      warnings.push(`${name} differs between ${ENV_FILES.site} and ${ENV_FILES.function}: the function will refuse the site's relay`);
  }
  if (env.function.RESEND_API_KEY && !env.function.MAIL_TRANSPORT) env.function.MAIL_TRANSPORT = "resend";

  for (const name of ignored.keys()) applied.delete(name);
  const list = (map) => [...map].map(([name, from]) => ({ name, from })).sort((a, b) => a.name.localeCompare(b.name));
  return { env, files, applied: list(applied), ignored: list(ignored), warnings };
}

/** The banner's lines about the configuration: files, names (never values) and where each came from. */
export function describeConfig({ files, applied, ignored, warnings }) {
  const names = (entries) => entries.map(({ name, from }) => `${name} (${from})`).join(", ");
  return [
    `Configuration     ${files.length ? files.map((f) => `${f.path} (${f.count} variables)`).join(", ") : `no ${ENV_FILES.site} or ${ENV_FILES.function}`}`,
    applied.length ? `  over the stack's ${names(applied)}` : `  the stack's local values only`,
    ...(ignored.length ? [`  kept the stack's own ${names(ignored)}`] : []),
    ...warnings.map((warning) => `  warning: ${warning}`),
  ];
}
