// Ports of the local stack. Free ports come from `get-port` (which also remembers for a while the ports
// it handed out in this process, so several asked for at once are never the same one), from PORT_RANGE
// below, each reserved for this process in a folder every process of this machine shares (below).
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import getPort from "get-port";

/**
 * Where free ports are looked for: below the system's range of ports for outgoing connections (Linux
 * 32768-60999 unless changed, read from /proc; macOS and Windows 49152-65535). A port from that range,
 * free when handed out, can meanwhile become the source port of any connection the machine opens,
 * before the server it was meant for listens: `remix dev` listens only after its first build (10 s on a
 * loaded machine), and in `npm test` it failed with EADDRINUSE. Ports here are taken only by servers
 * that ask for them. Where the outgoing range starts too low to leave room (some containers use
 * 1024-65535), or 100 random tries find nothing free, the system picks one, as before.
 */
export const PORT_RANGE = (() => {
  let outgoingFrom = 49152;
  try {
    outgoingFrom = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
  } catch {
    // not Linux
  }
  const to = Math.min(32767, outgoingFrom - 1);
  return to - 20000 >= 4000 ? { from: 20000, to } : null;
})();

/**
 * Where a process reserves the ports it hands out, one file per port holding its pid. A port is free
 * from the moment it is handed out until its server listens, and that can take a while (PostgreSQL's
 * initdb, `remix dev`'s first build, 10 s and more on a loaded machine): meanwhile another process,
 * which only sees that nothing listens there, could hand out the same port. `npm test` runs a dozen
 * stacks at once in several processes, and a catcher's port was taken that way (CI, 2026-11-26:
 * EADDRINUSE). A reservation ends when its process exits, or after RESERVED_MS, by when its server
 * listens or will never. Ports are the machine's, so the folder is the machine's /tmp whatever TMPDIR a
 * program runs with (a test that gave its programs a TMPDIR of their own had taken them out of it).
 */
export const RESERVATIONS = path.join(process.platform === "win32" ? os.tmpdir() : "/tmp", "studio-site-ports");
const RESERVED_MS = 10 * 60_000;
/** The lock under which an abandoned reservation is taken over; one older than this was left by a process that died holding it. */
const TAKEOVER_LOCK = path.join(RESERVATIONS, ".takeover");
const TAKEOVER_LOCK_STALE_MS = 10_000;
/** The ports this process holds, given up when it exits. */
const held = new Set();
let hooked = false;
let warned = false;
const fileOf = (port) => path.join(RESERVATIONS, String(port));

/** The pid a reservation names, or NaN. */
function ownerOf(file) {
  const text = readFileSync(file, "utf8");
  return /^[1-9]\d*$/.test(text) ? Number(text) : NaN;
}

/**
 * Whether a reservation belongs to nobody any more: it names no process (garbage, 0, -1 and an empty
 * file included: a reservation is written whole before it appears, below), its process is gone, or it
 * is older than RESERVED_MS.
 */
function abandoned(file) {
  try {
    const owner = ownerOf(file);
    if (Number.isNaN(owner) || Date.now() - statSync(file).mtimeMs > RESERVED_MS) return true;
    process.kill(owner, 0);
    return false;
  } catch (error) {
    // ESRCH: no such process; ENOENT: released meanwhile. EPERM: alive, another user's.
    return error.code !== "EPERM";
  }
}

/**
 * Removes an abandoned reservation, one process at a time. Two processes that both judged a dead
 * owner's reservation abandoned each removed the other's new one, and both held the port (an outside
 * test: 17 of 40 rounds of 6 processes). Under the lock no one else removes, so the second look is final.
 */
function takeOver(file) {
  try {
    mkdirSync(TAKEOVER_LOCK);
  } catch (error) {
    if (error.code === "EEXIST" && Date.now() - statSync(TAKEOVER_LOCK, { throwIfNoEntry: false })?.mtimeMs > TAKEOVER_LOCK_STALE_MS) {
      rmSync(TAKEOVER_LOCK, { recursive: true, force: true });
    }
    return false;
  }
  try {
    if (!abandoned(file)) return false;
    rmSync(file, { force: true });
    return true;
  } finally {
    rmSync(TAKEOVER_LOCK, { recursive: true, force: true });
  }
}

/** The folder, shared by every user of the machine as ports are (sticky, as /tmp: no one removes another's file). */
function makeFolder() {
  mkdirSync(RESERVATIONS, { recursive: true });
  try {
    if (statSync(RESERVATIONS).uid === process.getuid?.()) chmodSync(RESERVATIONS, 0o1777);
  } catch {
    // another user's folder, or a system without modes: as it is
  }
}

/**
 * Reserves the port for this process; false when another living process holds it. The file appears
 * whole (written aside, then linked into place, which fails if the name exists), so no one reads it half written.
 */
function reserve(port) {
  const file = fileOf(port);
  const draft = `${file}.${process.pid}.draft`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(draft, String(process.pid));
      try {
        linkSync(draft, file);
      } finally {
        rmSync(draft, { force: true });
      }
      held.add(port);
      if (!hooked) {
        hooked = true;
        process.once("exit", () => held.forEach(release));
      }
      return true;
    } catch (error) {
      if (error.code === "ENOENT") {
        try {
          makeFolder();
        } catch (folderError) {
          return cannotReserve(folderError);
        }
      } else if (error.code !== "EEXIST") return cannotReserve(error);
      else if (!abandoned(file) || !takeOver(file)) return false;
    }
  }
  return false;
}

/** Says once that reservations are off (the folder cannot be written), and lets the port through unreserved, as before them. */
function cannotReserve(error) {
  if (!warned) console.warn(`ports: cannot reserve ports in ${RESERVATIONS} (${error.code}): ports are not reserved across processes`);
  warned = true;
  return true;
}

/** Gives the port up, if the reservation is still this process's (one taken over after RESERVED_MS is not). */
function release(port) {
  if (!held.delete(port)) return;
  try {
    if (ownerOf(fileOf(port)) === process.pid) rmSync(fileOf(port), { force: true });
  } catch {
    // gone already
  }
}

/** Random candidates in `range`, each reserved for this process before it is tried. */
function* candidates(range, tried, count = 100) {
  if (!range) return;
  for (let i = 0; i < count; i++) {
    const port = range.from + Math.floor(Math.random() * (range.to - range.from + 1));
    if (held.has(port) || !reserve(port)) continue;
    tried.push(port);
    yield port;
  }
}

/**
 * A TCP port on 127.0.0.1 that is free now, not handed out by this process in the last 15 s or so, and
 * not handed out by any living process of this machine in the last RESERVED_MS.
 * @param {{ from: number, to: number } | null} [range] where to look (PORT_RANGE; tests narrow it)
 */
export async function freePort(range = PORT_RANGE) {
  const tried = [];
  const port = await getPort({ host: "127.0.0.1", port: candidates(range, tried) });
  for (const other of tried) if (other !== port) release(other);
  return port;
}

/** Whether something accepts connections on the port right now. */
export function isListening(port, host = "127.0.0.1") {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Resolves when something accepts connections on the port, or rejects after `timeoutMs`. */
export async function waitForPort(port, timeoutMs = 30_000, host = "127.0.0.1") {
  const deadline = Date.now() + timeoutMs;
  while (!(await isListening(port, host))) {
    if (Date.now() > deadline) throw new Error(`nothing listening on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
