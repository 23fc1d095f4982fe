// `npm run verify` as the owner runs it (node with the tsx loader), for the tests of its checks.
import { spawn } from "node:child_process";
import { ROOT } from "../../scripts/local-stack/processes.mjs";

/** Runs scripts/deploy/verify.mjs with `args`, the environment over this one's; its exit code and all it printed. */
export function runVerify(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/deploy/verify.mjs", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => resolve({ code, output }));
  });
}
