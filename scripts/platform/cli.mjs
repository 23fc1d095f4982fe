// `npm run stack` and `npm run dev`: the local platform (stack.mjs) on the ports of `supabase start`,
// with the database kept in .stack/db, until Ctrl-C.
//   stack [--build] [--fresh] [--cdn]   the production build of the site (--build rebuilds it first)
//   dev [--fresh]                       the site under `remix dev` (an edit reloads the page) and the
//                                       function under Deno's watch mode (an edit restarts it)
import { rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { portsFromEnv } from "./environment.mjs";
import { installedMajorVersion } from "./postgres.mjs";
import { ROOT } from "./processes.mjs";
import { build, startStack } from "./stack.mjs";

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { build: { type: "boolean" }, fresh: { type: "boolean" }, cdn: { type: "boolean" } },
});
const mode = positionals[0] ?? "stack";
if (!["stack", "dev"].includes(mode)) {
  console.error(`usage: node scripts/platform/cli.mjs stack|dev [--build] [--fresh] [--cdn]`);
  process.exit(2);
}

// Where the database keeps its data between runs; `--fresh` starts it empty.
const dataDir = path.resolve(ROOT, process.env.STACK_DB_DIR ?? ".stack/db");
if (flags.fresh) rmSync(dataDir, { recursive: true, force: true });

let stack;
const stop = async (code) => {
  await stack?.stop();
  process.exit(code);
};
process.once("SIGINT", () => (console.log("\nStopping…"), stop(0)));
process.once("SIGTERM", () => stop(0));

try {
  if (mode === "stack" && flags.build) {
    console.log("Building the site…");
    await build(false);
  }
  const ports = portsFromEnv();
  stack = await startStack({
    ports,
    dataDir,
    site: mode === "dev" ? "dev" : "build",
    fn: mode === "dev" ? "watch" : "run",
    cdn: Boolean(flags.cdn),
    // HOST: the site answers on every interface, so a phone on the same network can open the page and
    // send the form without JavaScript (the function, and so the JavaScript path, stays on 127.0.0.1).
    // With --cdn, the site trusts the CDN on this machine (nginx) to say who the visitor is.
    env: { site: { HOST: "0.0.0.0", SITE_URL: `http://localhost:${ports.site}`, ...(flags.cdn ? { TRUST_PROXY: "loopback" } : {}) } },
    quiet: false,
  });
  const where = stack.db.dataDir.startsWith(ROOT + path.sep) ? path.relative(ROOT, stack.db.dataDir) : stack.db.dataDir;
  console.log(`
  Studio site is running${mode === "dev" ? " in development (edits reload the page)" : ""} (Ctrl-C stops everything)

    Site              http://localhost:${ports.site}${stack.cdn ? `\n    Through the CDN   ${stack.cdnUrl}` : ""}
    Function          ${stack.functionUrl}/functions/v1/send-contact-email
    Caught mail       ${stack.mail.apiUrl}        (JSON: /messages)
    Database          ${stack.db.url}   (PostgreSQL ${installedMajorVersion()}, data in ${where}${stack.db.fresh ? ", new" : ""})
`);
} catch (error) {
  console.error(error);
  await stop(1);
}
