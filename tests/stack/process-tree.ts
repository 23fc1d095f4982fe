// The processes under a process, from Linux's /proc: what a stack started (the function, the catcher,
// PostgreSQL and its backends, the site), to signal one part of it or to see that none is left.
import { readdirSync, readFileSync } from "node:fs";

export type Proc = { pid: number; parent: number; name: string; command: string; ended?: boolean };

function all(): Proc[] {
  const procs: Proc[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const end = stat.lastIndexOf(")");
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      const [state, parent] = stat.slice(end + 2).split(" ");
      procs.push({
        pid: Number(entry),
        parent: Number(parent),
        name: stat.slice(stat.indexOf("(") + 1, end),
        command,
        // A zombie has ended: only its parent (here, one that never reaps: a container's first process) has yet to hear of it.
        ended: state === "Z",
      });
    } catch {
      // ended meanwhile
    }
  }
  return procs;
}

/** Every process below `pid`, children first. */
export function descendants(pid: number): Proc[] {
  const procs = all();
  const found: Proc[] = [];
  const below = (parent: number) => {
    for (const p of procs.filter((q) => q.parent === parent)) {
      found.push(p);
      below(p.pid);
    }
  };
  below(pid);
  return found;
}

/** The one process below `pid` that `match` picks (the function: name "deno"; the catcher: its script). */
export function part(pid: number, match: (p: Proc) => boolean): Proc {
  const found = descendants(pid).filter(match);
  if (found.length !== 1) throw new Error(`expected one such process below ${pid}, found ${found.length}: ${JSON.stringify(found)}`);
  return found[0]!;
}

export const isFunction = (p: Proc) => p.name === "deno";
export const isCatcher = (p: Proc) => p.command.includes("smtp-catcher.mjs");
/** The postmaster: the postgres process whose parent is not a postgres process. */
export const isPostmaster = (pid: number) => (p: Proc) => p.name === "postgres" && p.parent === pid;

/** Those of `procs` still running (a pid reused meanwhile would need the same name). */
export function stillRunning(procs: Proc[]): Proc[] {
  const now = new Map(all().map((p) => [p.pid, p]));
  return procs.filter((p) => now.get(p.pid)?.name === p.name && !now.get(p.pid)?.ended);
}
