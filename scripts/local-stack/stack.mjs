// The local stack, composed once. Everything that needs the product running locally starts it
// here, from the one description of its environment (environment.mjs):
//   PostgreSQL from npm (postgres.mjs) with supabase/migrations applied
//   an SMTP catcher with a page and a JSON API of caught mail (smtp-catcher.mjs)
//   send-contact-email under Deno, at the URL shape supabase-js calls (optionally in watch mode)
//   the site: the production build under remix-serve, or `remix dev` (live reload)
//   optionally nginx with proxy_cache in front of the site, as a CDN (cdn.mjs)
// Used by `npm run stack` and `npm run dev` (cli.mjs), the browser tests (tests/e2e/fixtures.ts), the
// function's tests (scripts/test/function.mjs), the load test and the bench (scripts/measure/).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { startNginx } from "./cdn.mjs";
import { DENO, denoEnv, FUNCTION_DIR, FUNCTION_FLAGS } from "./deno.mjs";
import { DEFAULT_PORTS, functionEnvironment, siteEnvironment } from "./environment.mjs";
import { freePort } from "./ports.mjs";
import { startPostgres } from "./postgres.mjs";
import { bin, ROOT, startProcess } from "./processes.mjs";
import { startSmtpCatcher } from "./smtp-catcher.mjs";

/**
 * @typedef {{ stop(): Promise<void>, output: string, exited: Promise<unknown> }} Process
 * @typedef {{ url: string, port: number, dataDir: string, fresh: boolean, stop(): Promise<void>, pause(): Promise<void>, resume(): Promise<void> }} Database
 * @typedef {{ apiUrl: string, smtpPort: number, read(): Promise<any[]>, count(): Promise<number>, clear(): Promise<void>, stop(): Promise<void> }} MailCatcher
 * @typedef {{ url: string, port: number, originRequests(uri?: string): number, stop(): Promise<void> }} Cdn
 * @typedef {object} Stack
 * @property {{ site: number, function: number, db: number, mailUi: number, smtp: number, cdn: number }} ports
 * @property {string} siteUrl
 * @property {string} functionUrl
 * @property {string} cdnUrl
 * @property {Database} [db]
 * @property {MailCatcher} [mail]
 * @property {Process} [fn]
 * @property {Process} [site]
 * @property {Cdn} [cdn]
 * @property {Record<string, string>} functionEnv
 * @property {Record<string, string>} siteEnv
 * @property {() => Promise<void>} stopFunction
 * @property {(overrides?: Record<string, string>) => Promise<void>} startFunction
 * @property {() => Promise<Cdn>} startCdn
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
 *   it directly) or in its own (a load generator's timers stay undisturbed); default "in-process"
 * @param {"run" | "watch" | false} [options.fn] the function; "watch" restarts it on edits (Deno --watch)
 * @param {"build" | "dev" | false} [options.site] the production build, or `remix dev` with live reload
 * @param {boolean} [options.cdn] nginx proxy_cache in front of the site (or later: `stack.startCdn()`)
 * @param {{ function?: object, site?: object }} [options.env] variables over the described ones
 * @param {boolean} [options.quiet] keep the children's output to themselves (default true)
 * @returns {Promise<Stack>}
 */
export async function startStack({
  ports: portsOption = "free",
  dataDir,
  db: withDb = true,
  dbSettings = {},
  mail = "in-process",
  fn = "run",
  site = "build",
  cdn = false,
  env = {},
  quiet = true,
} = {}) {
  const ports = await resolvePorts(portsOption);
  const stops = [];
  /** @type {Stack} */
  const stack = {
    ports,
    siteUrl: `http://127.0.0.1:${ports.site}`,
    functionUrl: `http://127.0.0.1:${ports.function}`,
    cdnUrl: `http://127.0.0.1:${ports.cdn}`,
    /** Stops everything this call started, newest first. */
    async stop() {
      for (const stop of stops.splice(0).reverse()) await Promise.resolve(stop()).catch(() => undefined);
    },
  };
  try {
    if (withDb) {
      stack.db = await startPostgres({ port: ports.db, dataDir, settings: dbSettings });
      stops.push(() => stack.db.stop());
    }
    if (mail) {
      stack.mail =
        mail === "process"
          ? await startCatcherProcess(ports, quiet)
          : await startSmtpCatcher({ smtpPort: ports.smtp, httpPort: ports.mailUi });
      stops.push(() => stack.mail.stop());
    }

    // Browsers call the function from the site, and from the CDN in front of it; `localhost` too, the
    // address a developer types. The site takes posts from the same origins as its own.
    const siteOrigins = [stack.siteUrl, `http://localhost:${ports.site}`, `http://127.0.0.1:${ports.cdn}`, `http://localhost:${ports.cdn}`];
    stack.functionEnv = {
      ...functionEnvironment({ databaseUrl: stack.db?.url ?? "", smtpPort: ports.smtp, siteOrigins }),
      ...env.function,
    };
    stack.siteEnv = { ...siteEnvironment({ functionUrl: stack.functionUrl, siteUrl: stack.siteUrl, siteOrigins }), ...env.site };

    if (fn) {
      stack.fn = await startFunction({ port: ports.function, env: stack.functionEnv, watch: fn === "watch", quiet });
      stops.push(() => stack.fn.stop());
      /** Stops the function (for "function down" tests). */
      stack.stopFunction = () => stack.fn.stop();
      /** Starts it again, with `overrides` over its environment (for example a lower limit). */
      stack.startFunction = async (overrides = {}) => {
        await stack.fn.stop();
        stack.fn = await startFunction({ port: ports.function, env: { ...stack.functionEnv, ...overrides }, watch: fn === "watch", quiet });
      };
    }
    if (site) {
      stack.site = await startSite({ port: ports.site, env: stack.siteEnv, dev: site === "dev", quiet });
      stops.push(() => stack.site.stop());
    }
    /** nginx proxy_cache in front of the site, on the CDN port (its origin is allowed by the function). */
    stack.startCdn = async () => {
      const started = await startNginx({ upstream: stack.siteUrl, port: ports.cdn });
      stops.push(() => started.stop());
      return started;
    };
    if (cdn) stack.cdn = await stack.startCdn();
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
export async function startFunction({ port, env, watch = false, quiet = true }) {
  return startProcess(
    "function",
    DENO,
    ["run", ...(watch ? [`--watch=${FUNCTION_DIR}/,supabase/functions/_shared/`] : []), ...FUNCTION_FLAGS, `${FUNCTION_DIR}/index.ts`],
    { env: denoEnv({ DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`, ...env }), port, quiet },
  );
}

/**
 * The site: the production build under remix-serve (built first when there is none), or `remix dev`,
 * which rebuilds on every edit, restarts remix-serve on the new build and tells the page to reload.
 */
export async function startSite({ port, env, dev = false, quiet = true }) {
  if (dev) {
    const devServerPort = await freePort();
    return startProcess("site", bin("remix"), ["dev", "--port", String(devServerPort)], {
      env: { NODE_ENV: "development", PORT: String(port), HOST: "127.0.0.1", ...env },
      port,
      quiet,
      readyTimeoutMs: 120_000,
      openStdin: true,
    });
  }
  if (!isProductionBuild()) await build(quiet);
  return startProcess("site", bin("remix-serve"), ["build/index.js"], {
    env: { NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env },
    port,
    quiet,
  });
}

/**
 * Whether build/ holds a production build. `npm run dev` writes a development build to the same place;
 * served in production it fails on every page, so it is rebuilt first.
 */
export function isProductionBuild() {
  const server = path.join(ROOT, "build/index.js");
  return existsSync(server) && /\bmode = "production"/.test(readFileSync(server, "utf8"));
}

/** `npm run build`, waited for. */
export async function build(quiet = true) {
  const proc = await startProcess("build", "npm", ["run", "build", "--silent"], { quiet });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`npm run build failed (${code}):\n${proc.output}`);
}

/** The SMTP catcher in a process of its own, with the same handle as the in-process one. */
async function startCatcherProcess(ports, quiet) {
  const proc = await startProcess(
    "mail",
    process.execPath,
    ["scripts/local-stack/smtp-catcher.mjs", String(ports.smtp), String(ports.mailUi)],
    {
      port: ports.mailUi,
      quiet,
    },
  );
  const apiUrl = `http://127.0.0.1:${ports.mailUi}`;
  return {
    apiUrl,
    smtpPort: ports.smtp,
    read: async () => (await fetch(`${apiUrl}/messages`)).json(),
    count: async () => (await (await fetch(`${apiUrl}/messages/count`)).json()).count,
    clear: async () => void (await fetch(`${apiUrl}/messages`, { method: "DELETE" })),
    stop: () => proc.stop(),
  };
}
