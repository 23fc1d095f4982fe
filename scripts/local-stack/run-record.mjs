// What a run of `npm run stack` started, kept in its data folder, so that the next start from that folder
// can stop what a killed run left behind (docs/decisions/032). A SIGKILL gives the supervisor no moment to
// stop its parts: PostgreSQL, the catcher, the function and the site run on, holding the ports and the
// database's lock. The record names each process by its id and its start time, and only a process that
// still has both is stopped: an id the system has since given to another program is left alone.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";

/** How long a left-behind process gets to stop after its signal, before SIGKILL. */
const STOP_WAIT_MS = 5_000;

/**
 * When process `pid` started, as the system tells it (Linux: /proc's start time in clock ticks since
 * boot; elsewhere `ps`), or undefined when there is no such process. With the id, it names one process.
 */
export function startTime(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ...rest] = fields.slice(fields.lastIndexOf(")") + 2).split(" ");
    // A zombie has ended; only its parent has yet to hear of it.
    return state === "Z" ? undefined : `linux:${rest[18]}`;
  } catch (error) {
    if (error?.code !== "ENOENT" || process.platform === "linux") return undefined;
  }
  try {
    const started = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], { encoding: "utf8" }).trim();
    return started ? `ps:${started}` : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `recorded` ({ pid, started }) is still that same process. */
const stillThere = (recorded) => Boolean(recorded?.pid) && startTime(recorded.pid) === recorded.started;

/**
 * Writes the record: this process (the supervisor) and `parts`, each `{ name, pid, signal? }` (`signal`:
 * how it is asked to stop, SIGTERM by default). Written again whenever a part starts again.
 */
export function writeRunRecord(file, parts) {
  const entry = ({ name, pid, signal }) => ({ name, pid, started: startTime(pid), signal });
  const record = {
    supervisor: entry({ name: "the stack", pid: process.pid }),
    parts: parts.filter((part) => part.pid).map(entry),
  };
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
}

/** After a clean stop nothing is left to stop. */
export function removeRunRecord(file) {
  rmSync(file, { force: true });
}

/**
 * Stops what the run recorded in `file` left running, newest part first, and removes the record; returns
 * one line saying what it stopped, or undefined when nothing was left. Throws when that run's supervisor
 * still runs: the folder is in use, and its parts are not this start's to stop.
 */
export async function stopLeftovers(file) {
  let record;
  try {
    record = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined; // none, or cut short as it was written: nothing known to stop
  }
  if (stillThere(record.supervisor)) {
    throw new Error(`a stack already runs from this folder (process ${record.supervisor.pid}): stop it first (Ctrl-C in its terminal)`);
  }
  const stopped = [];
  for (const part of [...(record.parts ?? [])].reverse()) {
    if (!stillThere(part)) continue;
    try {
      process.kill(part.pid, part.signal ?? "SIGTERM");
    } catch {
      continue; // ended meanwhile
    }
    const deadline = Date.now() + STOP_WAIT_MS;
    while (stillThere(part) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (stillThere(part)) process.kill(part.pid, "SIGKILL");
    stopped.push(`${part.name} (process ${part.pid})`);
  }
  removeRunRecord(file);
  if (!stopped.length) return undefined;
  return `the last run from this folder ended without stopping its parts; stopped what it left running: ${stopped.join(", ")}`;
}
