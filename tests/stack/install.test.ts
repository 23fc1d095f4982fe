// The install check `npm run stack` and `npm run dev` start with (scripts/local-stack/install.mjs): plain
// Node, so they run where there is no bash. Run on a copy of the script in a scratch folder, with a
// stand-in npm that records what it was asked to do.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A scratch clone holding the script and a lock file; `run()` runs the check and says what npm was asked. */
function scratchClone() {
  const dir = mkdtempSync(path.join(tmpdir(), "studio-install-"));
  folders.push(dir);
  mkdirSync(path.join(dir, "scripts/local-stack"), { recursive: true });
  copyFileSync(path.join(ROOT, "scripts/local-stack/install.mjs"), path.join(dir, "scripts/local-stack/install.mjs"));
  writeFileSync(path.join(dir, "package-lock.json"), "{}");
  // What `npm ci` leaves behind, and a record of the call.
  const npm = path.join(dir, "fake-npm.cjs");
  writeFileSync(
    npm,
    `const fs = require("fs"); fs.appendFileSync("npm-calls", process.argv.slice(2).join(" ") + "\\n");
     fs.mkdirSync("node_modules", { recursive: true }); fs.writeFileSync("node_modules/.package-lock.json", "{}");`,
  );
  return {
    dir,
    run() {
      const result = spawnSync(process.execPath, ["scripts/local-stack/install.mjs"], {
        cwd: dir,
        env: { ...process.env, npm_execpath: npm },
        encoding: "utf8",
      });
      assert.equal(result.status, 0, result.stderr);
      const calls = path.join(dir, "npm-calls");
      const made = existsSync(calls) ? readFileSync(calls, "utf8").trim().split("\n") : [];
      rmSync(calls, { force: true });
      return made;
    },
  };
}

describe("the install check of npm run stack and npm run dev", () => {
  test("runs npm ci on a fresh clone, nothing when installed, npm ci again after the lock file changes", () => {
    const clone = scratchClone();
    assert.deepEqual(clone.run(), ["ci --no-audit --no-fund"]);
    assert.deepEqual(clone.run(), []);
    const later = new Date(Date.now() + 10_000);
    utimesSync(path.join(clone.dir, "package-lock.json"), later, later);
    assert.deepEqual(clone.run(), ["ci --no-audit --no-fund"]);
  });

  test("package.json starts the stack, the dev stack and the install check without bash", () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
    for (const name of ["stack", "dev"]) {
      assert.match(scripts[name], /^node scripts\/local-stack\/install\.mjs && node /);
      assert.doesNotMatch(scripts[name], /\bbash\b|\.sh\b/);
    }
  });
});
