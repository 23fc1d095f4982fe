// Starting the function (Deno) and the site (remix-serve) as child processes with their env.
import { spawn } from "node:child_process";
import path from "node:path";
import { DENO, FUNCTION_CONFIG } from "./deno.mjs";
import { isListening, waitForPort } from "./ports.mjs";

export const ROOT = path.resolve(import.meta.dirname, "../..");
/**
 * The relay secret every local site and function share unless told otherwise (ENQUIRY_RELAY_SECRET):
 * the production build refuses to start without one, and the no-JS form needs it.
 */
export const LOCAL_RELAY_SECRET = "local-relay-secret";
const bin = (name) => path.join(ROOT, "node_modules/.bin", name);

async function start(name, command, args, { env, port, quiet }) {
  // Otherwise the readiness check would mistake another program for this one.
  if (await isListening(port)) throw new Error(`${name}: port ${port} is already in use`);
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const output = [];
  const collect = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 2000) output.splice(0, 1000);
    if (!quiet) process.stdout.write(`[${name}] ${chunk}`);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    child,
    output,
    ready: Promise.race([
      waitForPort(port, 60_000),
      exited.then((code) => {
        throw new Error(`${name} exited with ${code} before listening:\n${output.join("")}`);
      }),
    ]),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** send-contact-email under Deno at http://127.0.0.1:<port>/functions/v1/send-contact-email. */
export async function startFunction({ port, env, quiet = true }) {
  const proc = await start("function", DENO, [
    "run", "--allow-net", "--allow-env", "--allow-read", "--allow-sys",
    "--config", FUNCTION_CONFIG,
    "supabase/functions/send-contact-email/index.ts",
  ], { env: { DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`, NO_COLOR: "1", ENQUIRY_RELAY_SECRET: LOCAL_RELAY_SECRET, ...env }, port, quiet });
  await proc.ready;
  return { ...proc, url: `http://127.0.0.1:${port}` };
}

/** The production build served by remix-serve. */
export async function startSite({ port, env, quiet = true }) {
  const proc = await start("site", bin("remix-serve"), ["build/index.js"], {
    env: { NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ENQUIRY_RELAY_SECRET: LOCAL_RELAY_SECRET, ...env },
    port,
    quiet,
  });
  await proc.ready;
  return { ...proc, url: `http://127.0.0.1:${port}` };
}

/** The SMTP catcher in a process of its own; its HTTP API is at `apiUrl`. */
export async function startSmtpCatcherProcess({ smtpPort, httpPort, quiet = true }) {
  const proc = await start("smtp", process.execPath, ["scripts/lib/smtp-catcher.mjs", String(smtpPort), String(httpPort)], {
    env: {},
    port: httpPort,
    quiet,
  });
  await proc.ready;
  await waitForPort(smtpPort, 10_000);
  return { ...proc, apiUrl: `http://127.0.0.1:${httpPort}` };
}
