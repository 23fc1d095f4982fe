// A scratch copy of the repository, for tests that prove what an edit costs (content that grows, a new form
// field): everything but what the build, the stack and git make, with the repository's own node_modules linked
// (not copied), in a temporary folder the caller removes.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** What a copy need not hold: dependencies (linked), what the build and the stack make, and history. */
const LEFT_OUT = new Set([
  "node_modules",
  "build",
  "public/build",
  ".cache",
  ".git",
  ".stack",
  "artifacts",
  "test-results",
  "playwright-report",
]);

export type ScratchCopy = {
  dir: string;
  /** Rewrites one file of the copy (a path from the repository's root); throws when the edit changes nothing. */
  edit(file: string, change: (source: string) => string): void;
  /** Runs a command in the copy, bounded: its exit code and output. */
  run(command: string, args: string[], timeoutMs: number): { code: number | null; output: string };
  remove(): void;
};

export function scratchCopy(): ScratchCopy {
  const dir = mkdtempSync(path.join(tmpdir(), "studio-scratch-"));
  try {
    cpSync(ROOT, dir, { recursive: true, filter: (source) => !LEFT_OUT.has(path.relative(ROOT, source)) });
    symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    edit(file, change) {
      const target = path.join(dir, file);
      const before = readFileSync(target, "utf8");
      const after = change(before);
      if (after === before) throw new Error(`the edit of ${file} changed nothing: has the file changed shape?`);
      writeFileSync(target, after);
    },
    run(command, args, timeoutMs) {
      // A shell's variables, not the test runner's (its NODE_ENV=test, npm's prefix pointing at the repository).
      const { PATH, HOME, LANG, TMPDIR } = process.env;
      const env = Object.fromEntries(
        Object.entries({ PATH, HOME, LANG, TMPDIR, NO_COLOR: "1" }).filter(([, v]) => v !== undefined),
      ) as unknown as NodeJS.ProcessEnv;
      const result = spawnSync(command, args, { cwd: dir, encoding: "utf8", timeout: timeoutMs, env });
      return { code: result.status, output: `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? String(result.error) : ""}` };
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
