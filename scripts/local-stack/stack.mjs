// The local stack, composed once. Everything that needs the product running locally starts it
// here, from the one description of its environment (environment.mjs):
//   PostgreSQL from npm (postgres.mjs) with supabase/migrations applied
//   an SMTP catcher with a page and a JSON API of caught mail (smtp-catcher.mjs)
//   send-contact-email under Deno, at the URL shape supabase-js calls (optionally in watch mode)
//   the site: the production build under remix-serve, or `remix dev` (live reload)
//   optionally nginx with proxy_cache in front of the site, as a CDN (cdn.mjs)
//   optionally the redelivery schedule that pg_cron runs in production (schedule.mjs)
// Supervised as the platform is (supervisor.mjs, docs/decisions/025): the function and the site are
// started again when they exit; the database or a catcher process that exits stops the whole stack.
// Used by `npm run stack` and `npm run dev` (cli.mjs), the browser tests (tests/e2e/fixtures.ts), the
// function's tests (scripts/test/function.mjs), the load test and the bench (scripts/measure/).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startNginx } from "./cdn.mjs";
import { DENO, denoEnv, FUNCTION_DIR, FUNCTION_FLAGS } from "./deno.mjs";
import { DEFAULT_PORTS, functionEnvironment, siteEnvironment } from "./environment.mjs";
import { freePort } from "./ports.mjs";
import { startPostgres } from "./postgres.mjs";
import { bin, echo, ROOT, startProcess } from "./processes.mjs";
import { removeRunRecord, writeRunRecord } from "./run-record.mjs";
import { startRedeliverySchedule } from "./schedule.mjs";
import { startSmtpCatcher } from "./smtp-catcher.mjs";
import { howItEnded, keepRunning } from "./supervisor.mjs";

/**
 * @typedef {{ stop(): Promise<void>, output: string, exited: Promise<unknown> }} Process
 * @typedef {{ url: string, port: number, dataDir: string, fresh: boolean, pid: number | undefined, stop(): Promise<void>, pause(): Promise<void>, resume(): Promise<void> }} Database
 * @typedef {{ apiUrl: string, smtpPort: number, pid?: number, read(): Promise<any[]>, count(): Promise<number>, clear(): Promise<void>, stop(): Promise<void> }} MailCatcher
 * @typedef {{ url: string, port: number, pid: number | undefined, originRequests(uri?: string): number, stop(): Promise<void> }} Cdn
 * @typedef {object} Stack
 * @property {{ site: number, function: number, db: number, mailUi: number, smtp: number, cdn: number }} ports
 * @property {string} siteUrl
 * @property {string} functionUrl
 * @property {string} cdnUrl
 * @property {Database} [db]
 * @property {MailCatcher} [mail]
 * @property {Process & { child: import("node:child_process").ChildProcess, restarts: number }} [fn]
 * @property {Process & { child: import("node:child_process").ChildProcess, restarts: number }} [site]
 * @property {Cdn} [cdn]
 * @property {Record<string, string>} functionEnv
 * @property {Record<string, string>} siteEnv
 * @property {() => Promise<void>} stopFunction
 * @property {(overrides?: Record<string, string>) => Promise<void>} startFunction
 * @property {() => Promise<Cdn>} startCdn
 * @property {() => Promise<void>} restartMail
 * @property {{ everySeconds: number, stop(): void }} [schedule]
 * @property {() => Promise<void>} stop
 */

/**
 * Starts the parts asked for; returns their handles, URLs and environments, and `stop()`.
 * @param {object} options
 * @param {"free" | Partial<typeof DEFAULT_PORTS & { cdn: number }>} [options.ports] free ones ("free",
 *   for tests), or some of them given (`npm run stack`: `portsFromEnv()`), the rest free
 * @param {string} [options.dataDir] keep the database here between runs; without it, a temporary one
 * @param {boolean} [options.db] start PostgreSQL (default true)
 * @param {Record<string, string>} [options.dbSettings] PostgreSQL settings over the defaults (postgres.mjs)
 * @param {"in-process" | "process" | false} [options.mail] the SMTP catcher in this process (tests read
 *   it directly) or in its own (`npm run stack`: nothing it does, or a pause of it, slows this process;
 *   a load generator's timers stay undisturbed); default "in-process"
 * @param {string} [options.mailDir] where the catcher keeps what it caught (across its restarts); without
 *   it, in memory
 * @param {"run" | "watch" | false} [options.fn] the function; "watch" restarts it on edits (Deno --watch)
 * @param {"build" | "dev" | false} [options.site] the production build, or `remix dev` with live reload
 * @param {boolean} [options.cdn] nginx proxy_cache in front of the site (or later: `stack.startCdn()`)
 * @param {{ function?: object, site?: object }} [options.env] variables over the described ones
 * @param {number | false} [options.schedule] call the function's /redeliver every this many seconds, as
 *   pg_cron does in production (schedule.mjs); default false (tests that count attempts want none)
 * @param {boolean} [options.quiet] keep the children's output to themselves (default true)
 * @param {(line: string) => void} [options.log] the stack's own lines (restarts, the schedule); by default
 *   echoed as `[stack] …` unless quiet
 * @param {string} [options.logDir] where the parts write their output (`<part>.log`, emptied at start);
 *   without it, a temporary folder removed at stop. The parts write there themselves: nothing they
 *   write waits for this process (docs/decisions/032)
 * @param {string} [options.runRecord] a file naming the processes this run starts, kept up to date and
 *   removed at stop, for the next start to stop what a killed run left behind (run-record.mjs)
 * @param {(part: string, how: string) => unknown} [options.onPartExit] a part that cannot come back on its
 *   own (the database, a catcher process) ended unasked; by default the stack is stopped (`npm run stack`
 *   also exits non-zero: cli.mjs)
 * @returns {Promise<Stack>}
 */
export async function startStack({
  ports: portsOption = "free",
  dataDir,
  db: withDb = true,
  dbSettings = {},
  mail = "in-process",
  mailDir,
  fn = "run",
  site = "build",
  cdn = false,
  schedule = false,
  env = {},
  quiet = true,
  log = quiet ? () => {} : (line) => echo(`[stack] ${line}\n`),
  logDir,
  runRecord,
  onPartExit,
} = {}) {
  const ports = await resolvePorts(portsOption);
  const stops = [];
  // Set at once when stopping begins, before any part is asked to stop: a part that ends from then on
  // (a Ctrl-C reaches every process of the terminal) is neither started again nor a failure.
  let stopping = false;
  /** @type {Stack} */
  const stack = {
    ports,
    siteUrl: `http://127.0.0.1:${ports.site}`,
    functionUrl: `http://127.0.0.1:${ports.function}`,
    cdnUrl: `http://127.0.0.1:${ports.cdn}`,
    /** Stops everything this call started, newest first. */
    async stop() {
      stopping = true;
      for (const stop of stops.splice(0).reverse()) await Promise.resolve(stop()).catch(() => undefined);
    },
  };
  // Each part's output goes to a file of its own, which it writes itself; the last run's are emptied. The
  // folder is made when the first part needs it: a new database's folder must be empty until initdb ran.
  const logs = logDir ?? mkdtempSync(path.join(tmpdir(), "studio-stack-logs-"));
  if (logDir) for (const part of ["function", "site", "mail"]) rmSync(path.join(logs, `${part}.log`), { force: true });
  else stops.push(() => rmSync(logs, { recursive: true, force: true }));
  const logFile = (part) => (mkdirSync(logs, { recursive: true }), path.join(logs, `${part}.log`));
  /** The record of this run's processes, written again whenever one starts (PostgreSQL is asked with SIGINT: its fast stop). */
  const record = () =>
    runRecord &&
    writeRunRecord(runRecord, [
      { name: "the database", pid: stack.db?.pid, signal: "SIGINT" },
      { name: "the SMTP catcher", pid: stack.mail?.pid },
      { name: "the function", pid: stack.fn?.child.pid },
      { name: "the site", pid: stack.site?.child.pid },
      { name: "the CDN", pid: stack.cdn?.pid, signal: "SIGQUIT" },
    ]);
  if (runRecord) stops.unshift(() => removeRunRecord(runRecord));
  /** A part that cannot come back on its own ended unasked. */
  const partEnded = (part) => (code) => {
    if (stopping) return;
    const how = `exited (${howItEnded(code)})`;
    if (onPartExit) return onPartExit(part, how);
    log(`${part} ${how} and cannot come back on its own: stopping the stack`);
    return stack.stop();
  };
  try {
    if (withDb) {
      stack.db = await startPostgres({ port: ports.db, dataDir, settings: dbSettings, onExit: partEnded("the database") });
      stops.push(() => stack.db.stop());
      record();
    }
    if (mail) {
      const startMail = () =>
        mail === "process"
          ? startCatcherProcess({ ports, dir: mailDir, quiet, logFile: logFile("mail"), onExit: partEnded("the SMTP catcher") })
          : startSmtpCatcher({ smtpPort: ports.smtp, httpPort: ports.mailUi, dir: mailDir });
      stack.mail = await startMail();
      stops.push(() => stack.mail.stop());
      record();
      /** Stops the catcher and starts it again (what it caught stays, with a mail folder). */
      stack.restartMail = async () => {
        await stack.mail.stop();
        stack.mail = await startMail();
        record();
      };
    }

    // Browsers call the function from the site, and from the CDN in front of it; `localhost` too, the
    // address a developer types. The site takes posts from the same origins as its own.
    const siteOrigins = [stack.siteUrl, `http://localhost:${ports.site}`, `http://127.0.0.1:${ports.cdn}`, `http://localhost:${ports.cdn}`];
    stack.functionEnv = {
      ...functionEnvironment({ databaseUrl: stack.db?.url ?? "", smtpPort: ports.smtp, siteOrigins }),
      ...env.function,
    };
    stack.siteEnv = { ...siteEnvironment({ functionUrl: stack.functionUrl, siteUrl: stack.siteUrl, siteOrigins }), ...env.site };

    // The function reports the local schedule in /health (redelivery.localSchedule).
    if (schedule) stack.functionEnv.LOCAL_REDELIVERY_EVERY_SECONDS = String(schedule);

    const supervision = { log, stopping: () => stopping, onStart: () => record() };
    if (fn) {
      const runFunction = (overrides = {}) =>
        keepRunning(
          "the function",
          () =>
            startFunction({
              port: ports.function,
              env: { ...stack.functionEnv, ...overrides },
              watch: fn === "watch",
              quiet,
              logFile: logFile("function"),
            }),
          supervision,
        );
      stack.fn = await runFunction();
      stops.push(() => stack.fn.stop());
      /** Stops the function (for "function down" tests): asked, so it is not started again. */
      stack.stopFunction = () => stack.fn.stop();
      /** Starts it again, with `overrides` over its environment (for example a lower limit). */
      stack.startFunction = async (overrides = {}) => {
        await stack.fn.stop();
        stack.fn = await runFunction(overrides);
      };
      if (schedule) {
        stack.schedule = startRedeliverySchedule({
          functionUrl: `${stack.functionUrl}/functions/v1/send-contact-email`,
          secret: stack.functionEnv.REDELIVERY_SECRET,
          everySeconds: schedule,
          log,
        });
        stops.push(() => stack.schedule.stop());
      }
    }
    if (site) {
      stack.site = await keepRunning(
        "the site",
        () => startSite({ port: ports.site, env: stack.siteEnv, dev: site === "dev", quiet, logFile: logFile("site") }),
        supervision,
      );
      stops.push(() => stack.site.stop());
    }
    /** nginx proxy_cache in front of the site, on the CDN port (its origin is allowed by the function). */
    stack.startCdn = async () => {
      const started = await startNginx({ upstream: stack.siteUrl, port: ports.cdn, production: site === "build" });
      stops.push(() => started.stop());
      return started;
    };
    if (cdn) stack.cdn = await stack.startCdn();
    record();
    return stack;
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

async function resolvePorts(option) {
  const given = typeof option === "object" ? option : {};
  const ports = {};
  for (const name of [...Object.keys(DEFAULT_PORTS), "cdn"]) ports[name] = given[name] ?? (await freePort());
  return ports;
}

/** send-contact-email under Deno at http://127.0.0.1:<port>/functions/v1/send-contact-email. */
export async function startFunction({ port, env, watch = false, quiet = true, logFile }) {
  return startProcess(
    "function",
    DENO,
    ["run", ...(watch ? [`--watch=${FUNCTION_DIR}/,supabase/functions/_shared/`] : []), ...FUNCTION_FLAGS, `${FUNCTION_DIR}/index.ts`],
    { env: denoEnv({ DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`, ...env }), port, quiet, logFile },
  );
}

/**
 * The site: the production build under remix-serve (built first when there is none), or `remix dev`,
 * which rebuilds on every edit, restarts remix-serve on the new build and tells the page to reload.
 */
export async function startSite({ port, env, dev = false, quiet = true, logFile }) {
  if (dev) {
    const devServerPort = await freePort();
    return startProcess("site", bin("remix"), ["dev", "--port", String(devServerPort)], {
      env: { NODE_ENV: "development", PORT: String(port), HOST: "127.0.0.1", ...env },
      port,
      quiet,
      readyTimeoutMs: 120_000,
      openStdin: true,
      logFile,
    });
  }
  if (!isProductionBuild()) await build(quiet);
  return startProcess("site", bin("remix-serve"), ["build/index.js"], {
    env: { NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env },
    port,
    quiet,
    logFile,
  });
}

/**
 * Whether build/ holds a production build. `npm run dev` writes a development build to the same place;
 * served in production it fails on every page, so it is rebuilt first.
 */
export function isProductionBuild() {
  const server = path.join(ROOT, "build/index.js");
  return existsSync(server) && buildMode(readFileSync(server, "utf8")) === "production";
}

/**
 * The `mode` a Remix server build exports ("production" or "development"), read from its source without
 * running it: `var mode = "production"` as `remix dev` prints it, or minified as `npm run build` writes
 * it (remix.config.js, serverMinify): `var Vg="production"` ... `export{... Vg as mode ...}`.
 * @param {string} source
 * @returns {string | undefined}
 */
export function buildMode(source) {
  const name = /\b(\w+) as mode\b/.exec(source)?.[1] ?? "mode";
  return new RegExp(`\\b${name} ?= ?"(production|development)"`).exec(source)?.[1];
}

/** `npm run build`, waited for. */
export async function build(quiet = true) {
  const proc = await startProcess("build", "npm", ["run", "build", "--silent"], { quiet });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`npm run build failed (${code}):\n${proc.output}`);
}

/**
 * The SMTP catcher in a process of its own, with the same handle as the in-process one; `onExit` when
 * it ends without `stop()`.
 */
async function startCatcherProcess({ ports, dir, quiet, logFile, onExit }) {
  const proc = await startProcess(
    "mail",
    process.execPath,
    ["scripts/local-stack/smtp-catcher.mjs", String(ports.smtp), String(ports.mailUi), ...(dir ? [dir] : [])],
    {
      port: ports.mailUi,
      quiet,
      logFile,
    },
  );
  let asked = false;
  proc.exited.then((code) => asked || onExit(code));
  const apiUrl = `http://127.0.0.1:${ports.mailUi}`;
  return {
    apiUrl,
    smtpPort: ports.smtp,
    pid: proc.child.pid,
    read: async () => (await fetch(`${apiUrl}/messages`)).json(),
    count: async () => (await (await fetch(`${apiUrl}/messages/count`)).json()).count,
    clear: async () => void (await fetch(`${apiUrl}/messages`, { method: "DELETE" })),
    stop: () => ((asked = true), proc.stop()),
  };
}
