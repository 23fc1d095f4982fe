// Ports of the local stack. Free ports come from `get-port`, which also remembers the ports it
// handed out in this process, so several asked for at once are never the same one.
import net from "node:net";
import getPort from "get-port";

/** A TCP port on 127.0.0.1 that is free now and not handed out before by this process. */
export function freePort() {
  return getPort({ host: "127.0.0.1" });
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
