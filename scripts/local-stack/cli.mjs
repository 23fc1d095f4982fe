// `npm run stack` and `npm run dev`: the local stack (stack.mjs) on the ports of `supabase start`,
// with everything it keeps in its data folder (.stack/db: the database, caught mail, the parts' logs and
// the record of its processes: stack-folders.mjs), until Ctrl-C, configured by the
// developer's env files and shell over the stack's local values (developer-config.mjs). Supervised as
// the platform is (docs/decisions/025): a function that exits is started again; if the database or the
// SMTP catcher exits, everything stops with a line naming it, and the exit code is 1. Redelivery runs
// every minute, as pg_cron runs it in production (STACK_REDELIVERY_SECONDS changes the period). A start
// after a run that was killed stops what that run left running first (run-record.mjs, docs/decisions/032).
//   stack [--build] [--fresh] [--cdn]   the production build of the site (--build rebuilds it first)
//   dev [--fresh]                       the site under `remix dev` (an edit reloads the page) and the
//                                       function under Deno's watch mode (an edit restarts it)
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { describeConfig, developerConfig, documentedNames, STACK_WIRING } from "./developer-config.mjs";
import { functionEnvironment, portsFromEnv, siteEnvironment } from "./environment.mjs";
import { installedMajorVersion } from "./postgres.mjs";
import { echo, flushEcho, ROOT } from "./processes.mjs";
import { stopLeftovers } from "./run-record.mjs";
import { LOCAL_REDELIVERY_EVERY_SECONDS } from "./schedule.mjs";
import { stackFolders } from "./stack-folders.mjs";
import { build, startStack } from "./stack.mjs";

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { build: { type: "boolean" }, fresh: { type: "boolean" }, cdn: { type: "boolean" } },
});
const mode = positionals[0] ?? "stack";
if (!["stack", "dev"].includes(mode)) {
  console.error(`usage: node scripts/local-stack/cli.mjs stack|dev [--build] [--fresh] [--cdn]`);
  process.exit(2);
}

const { dataDir, mailDir, logDir, runRecord } = stackFolders(process.env);
const scheduleSeconds = Number(process.env.STACK_REDELIVERY_SECONDS || LOCAL_REDELIVERY_EVERY_SECONDS);
if (!(scheduleSeconds > 0)) {
  console.error(`STACK_REDELIVERY_SECONDS must be a number of seconds above 0, got "${process.env.STACK_REDELIVERY_SECONDS}"`);
  process.exit(2);
}

let stack;
let stopping;
const stop = (code) =>
  (stopping ??= (async () => {
    await stack?.stop();
    await flushEcho();
    process.exit(code);
  })());
process.once("SIGINT", () => (console.log("\nStopping…"), stop(0)));
process.once("SIGTERM", () => stop(0));
// Orphaned, the stack stops whole rather than run on with nobody to stop it. `npm run stack` starts this
// process through a shell, which passes no signal on: a SIGTERM to npm ends npm and the shell, and a
// SIGKILL to npm ends npm alone, leaving the shell. So under npm the shell's parent is watched too
// (Linux's /proc; elsewhere the parent only).
const launchers = () => [process.ppid, ...(process.env.npm_lifecycle_event ? [parentOf(process.ppid)] : [])].join();
const launchedBy = launchers();
setInterval(() => {
  if (launchers() === launchedBy) return;
  console.error("[stack] the process that started the stack ended: stopping everything");
  stop(1);
}, 1000).unref();

try {
  // What a killed run from this folder left running holds its ports and the database's lock.
  const leftovers = await stopLeftovers(runRecord);
  if (leftovers) console.log(`[stack] ${leftovers}`);
  // `--fresh` starts the database and the caught mail empty.
  if (flags.fresh) for (const dir of [dataDir, mailDir]) rmSync(dir, { recursive: true, force: true });
  if (mode === "stack" && flags.build) {
    console.log("Building the site…");
    await build(false);
  }
  const ports = portsFromEnv();
  // HOST: the site answers on every interface, so a phone on the same network can open the page and
  // send the form without JavaScript (the function, and so the JavaScript path, stays on 127.0.0.1).
  // With --cdn, the site trusts the CDN on this machine (nginx) to say who the visitor is.
  const siteLocal = { HOST: "0.0.0.0", SITE_URL: `http://localhost:${ports.site}`, ...(flags.cdn ? { TRUST_PROXY: "loopback" } : {}) };
  // The names the stack sets (the values stack.mjs gives them depend on the ports it settles on).
  const local = {
    function: functionEnvironment({ databaseUrl: "", smtpPort: ports.smtp, siteOrigins: [] }),
    site: { ...siteEnvironment({ functionUrl: "", siteUrl: "" }), ...siteLocal },
  };
  // STACK_ENV_DIR: where .env and supabase/functions/.env are read (the repository by default).
  const config = developerConfig({
    dir: path.resolve(ROOT, process.env.STACK_ENV_DIR ?? "."),
    local,
    known: documentedNames(ROOT),
    wiring: flags.cdn ? { ...STACK_WIRING, site: [...STACK_WIRING.site, "TRUST_PROXY"] } : STACK_WIRING,
  });
  stack = await startStack({
    ports,
    dataDir,
    site: mode === "dev" ? "dev" : "build",
    fn: mode === "dev" ? "watch" : "run",
    cdn: Boolean(flags.cdn),
    mail: "process",
    mailDir,
    logDir,
    runRecord,
    schedule: scheduleSeconds,
    env: { function: config.env.function, site: { ...siteLocal, ...config.env.site } },
    quiet: false,
    onPartExit(part, how) {
      console.error(`[stack] ${part} ${how}; it cannot come back on its own, so the whole stack stops`);
      return stop(1);
    },
  });
  const where = shortPath(stack.db.dataDir);
  console.log(`
  Studio site is running${mode === "dev" ? " in development (edits reload the page)" : ""} (Ctrl-C stops everything)

    Site              http://localhost:${ports.site}${stack.cdn ? `\n    Through the CDN   ${stack.cdnUrl}` : ""}
    Function          ${stack.functionUrl}/functions/v1/send-contact-email
    Caught mail       ${stack.mail.apiUrl}        (JSON: /messages, kept in ${shortPath(mailDir)})
    Logs              ${shortPath(logDir)}  (each part writes its own file; they are shown here too)
    Database          ${stack.db.url}   (PostgreSQL ${installedMajorVersion()}, data in ${where}${stack.db.fresh ? ", new" : ""})
    Redelivery        every ${scheduleSeconds} s, as pg_cron runs it in production (STACK_REDELIVERY_SECONDS)
    ${mailLine({ ...process.env, ...stack.functionEnv })}
    ${describeConfig(config).join("\n    ")}
`);
} catch (error) {
  // What went wrong, in a line or a few: a stack trace tells the developer nothing they can act on.
  echo(`[stack] could not start: ${error?.message ?? error}\n`);
  await stop(1);
}

/** The parent of process `pid` (from /proc), or undefined where it cannot be read. */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** A folder inside the repository as a relative path, any other as it is. */
function shortPath(dir) {
  return dir.startsWith(ROOT + path.sep) ? path.relative(ROOT, dir) : dir;
}

/**
 * Where the function's mail goes, as config.ts decides it (an explicit MAIL_TRANSPORT, else a Resend
 * key), from everything the function's process gets (the shell's variables included).
 */
function mailLine(env) {
  const transport = env.MAIL_TRANSPORT || (env.RESEND_API_KEY ? "resend" : "smtp");
  if (transport === "resend")
    return `Mail              through Resend (${env.RESEND_API_URL || "https://api.resend.com"}): none reaches the catcher; the function's log says how each send went`;
  return `Mail              to the catcher above`;
}
