// Installs the npm dependencies on a fresh clone (PostgreSQL and Deno come from npm too), or when the
// lock file changed since; quick otherwise. `npm run stack`, `npm run dev` and `npm test` start with it.
// Plain Node with nothing imported from node_modules (there may be none yet), so it runs wherever Node
// does, Windows without bash included.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const lock = path.join(ROOT, "package-lock.json");
// npm writes this when it installs: older than the lock file means the lock changed since.
const installed = path.join(ROOT, "node_modules/.package-lock.json");

if (!existsSync(installed) || statSync(lock).mtimeMs > statSync(installed).mtimeMs) {
  console.log("setup: npm ci");
  // Under `npm run`, npm says where its own script is: run that with this Node (no shell, no PATH lookup).
  const npm = process.env.npm_execpath;
  const args = ["ci", "--no-audit", "--no-fund"];
  const result = npm
    ? spawnSync(process.execPath, [npm, ...args], { cwd: ROOT, stdio: "inherit" })
    : spawnSync("npm", args, { cwd: ROOT, stdio: "inherit", shell: process.platform === "win32" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
