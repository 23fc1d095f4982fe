// Starts `npm run stack`'s script as a developer or tester does (scripts/local-stack/cli.mjs), on free
// ports, with the environment and env files a test gives it; resolves once it prints its URLs.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { emptyMessage, ENQUIRY_HEADERS } from "#shared/contact-message.ts";
import { portsToEnv } from "../../scripts/local-stack/environment.mjs";
import { freePort } from "../../scripts/local-stack/ports.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type Ports = { site: number; function: number; db: number; mailUi: number; smtp: number };

/** The function's address on a stack started on `ports`. */
export const functionUrl = (ports: Ports) => `http://127.0.0.1:${ports.function}/functions/v1/send-contact-email`;

/**
 * Visitor `i`'s enquiry tagged `tag` (every field of the contract; optional ones empty). Each its own
 * address: a confirmation goes to one address at most once an hour.
 */
export const visitorMessage = (tag: string, i = 0) => ({
  ...emptyMessage(),
  name: `Visitor ${i}`,
  email: `visitor${i}-${tag.toLowerCase()}@example.com`,
  projectTitle: `${tag} ${i}`,
});

/** Posts `message` to the function as a browser does: JSON, a person's fill time, a fresh key unless one is given. */
export function sendEnquiry(
  ports: Ports,
  message: object,
  { key = crypto.randomUUID() as string, headers = {} as Record<string, string> } = {},
) {
  return fetch(functionUrl(ports), {
    method: "POST",
    headers: { "content-type": "application/json", [ENQUIRY_HEADERS.idempotencyKey]: key, [ENQUIRY_HEADERS.fillMs]: "5000", ...headers },
    body: JSON.stringify(message),
  });
}

/** A folder for one stack's database and env files; `files` are written into it (".env", "supabase/functions/.env"). */
export function stackFolder(files: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "studio-stack-"));
  // As root the server runs as the `postgres` user, which must reach the data folder.
  chmodSync(dir, 0o755);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return { dir, dataDir: path.join(dir, "db"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function freePorts(): Promise<Ports> {
  return { site: await freePort(), function: await freePort(), db: await freePort(), mailUi: await freePort(), smtp: await freePort() };
}

/**
 * `node scripts/local-stack/cli.mjs stack` with the shell's variables plus `env`, its database in
 * `folder.dataDir` and its env files read from `folder.dir` (never the repository's own: a developer's
 * files must not change a test). `stop()` is the developer's Ctrl-C.
 */
export async function startStack(
  ports: Ports,
  folder: { dir: string; dataDir: string },
  env: Record<string, string> = {},
  { throughNpm = false, ownGroup = false } = {},
) {
  // `throughNpm`: as `npm run stack` starts it, through npm and a shell (the stack is then their grandchild).
  const [command, args] = throughNpm ? ["npm", ["run", "--silent", "stack"]] : [process.execPath, ["scripts/local-stack/cli.mjs", "stack"]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, STACK_DB_DIR: folder.dataDir, STACK_ENV_DIR: folder.dir, ...portsToEnv(ports), ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // `ownGroup`: a process group of its own, as a terminal gives a command (a Ctrl-C reaches the group).
    detached: ownGroup,
  });
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the stack did not start in 90 s:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("is running")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    exited.then((code) => reject(new Error(`the stack exited with ${code}:\n${output}`)));
  });
  return {
    get output() {
      return output;
    },
    /** The lines the stack printed once it was running (the banner). */
    get banner() {
      return output.slice(output.indexOf("Studio site is running"));
    },
    /** The stack's own process (its parts are its descendants: tests/stack/process-tree.ts). */
    pid: child.pid!,
    /** Resolves with its exit code (or signal) when it ends. */
    exited: exited as Promise<number | string | null>,
    async stop() {
      child.kill("SIGINT");
      await exited;
    },
    /** The terminal's Ctrl-C: SIGINT to every process of the group (with `ownGroup`). */
    async interrupt() {
      process.kill(-child.pid!, "SIGINT");
      return exited as Promise<number | string | null>;
    },
  };
}

export async function until<T>(check: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}
