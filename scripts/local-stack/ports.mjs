// Ports of the local stack. Free ports come from `get-port` (which also remembers for a while the ports
// it handed out in this process, so several asked for at once are never the same one), from PORT_RANGE below.
import { readFileSync } from "node:fs";
import net from "node:net";
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

/** Random candidates in PORT_RANGE: processes looking at the same moment seldom try the same one. */
function* candidates(count = 100) {
  if (!PORT_RANGE) return;
  for (let i = 0; i < count; i++) yield PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from + 1));
}

/** A TCP port on 127.0.0.1 that is free now and not handed out by this process in the last 15 s or so. */
export function freePort() {
  return getPort({ host: "127.0.0.1", port: candidates() });
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
