// The local stack supervises its parts as the platform does (docs/decisions/025):
// - a part the platform would start afresh (the function: the edge runtime starts a new worker for the
//   next request; the site) is started again when its process exits without being asked to, after a
//   pause that doubles with each exit in the last minute, and a line says why and how often;
// - a part that cannot come back on its own (the database, the SMTP catcher) is watched by the caller
//   (stack.mjs), which stops the whole stack and names it.

/** Exits counted for the pause before the next start: those of the last minute. */
export const RESTART_WINDOW_MS = 60_000;
/** The pause before a start: none after the first exit in a minute, then 0.5 s, 1 s, 2 s … at most 30 s. */
export function restartDelayMs(recentExits) {
  return recentExits <= 1 ? 0 : Math.min(30_000, 500 * 2 ** (recentExits - 2));
}

/** "exit code 1", "signal SIGKILL". */
export function howItEnded(code) {
  return typeof code === "string" ? `signal ${code}` : `exit code ${code}`;
}

/**
 * Starts a part with `start()` (a process handle of processes.mjs) and starts it again whenever it
 * exits unasked. The handle stands for whichever process runs now: `child`, `output`, `stop()` (which
 * is asking: no restart follows), and `restarts`, how many times it was started again.
 * @param {string} name the part, as the log line names it ("the function")
 * @param {() => Promise<import("./stack.mjs").Process & { child: import("node:child_process").ChildProcess }>} start
 * @param {{ log: (line: string) => void, stopping?: () => boolean, now?: () => number }} options `stopping`:
 *   whether the whole stack is stopping (a Ctrl-C reaches every process of the terminal at once: a part
 *   that ends then is not started again)
 */
export async function keepRunning(name, start, { log, stopping: stackStopping = () => false, now = Date.now }) {
  let current = await start();
  let stopping = false;
  let restarts = 0;
  /** When it exited unasked, within the window. */
  const exits = [];
  let wake = () => {};

  const watch = async (proc) => {
    const code = await proc.exited;
    for (;;) {
      if (stopping || stackStopping() || proc !== current) return;
      exits.push(now());
      while (exits[0] < now() - RESTART_WINDOW_MS) exits.shift();
      const delay = restartDelayMs(exits.length);
      log(
        `${name} exited (${howItEnded(code)}); starting it again${delay ? ` in ${delay / 1000} s` : ""} ` +
          `(${exits.length} ${exits.length === 1 ? "exit" : "exits"} in the last minute, ${restarts} restarts so far)`,
      );
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, delay);
        wake = () => (clearTimeout(timer), resolve());
      });
      if (stopping || stackStopping()) return;
      try {
        current = await start();
        restarts++;
        log(`${name} is running again`);
        return watch(current);
      } catch (error) {
        // Its port still held, or it died while starting: counted as another exit, so the pause grows.
        log(`${name} did not start again: ${String(error?.message ?? error).split("\n")[0]}`);
      }
    }
  };
  watch(current);

  return {
    get child() {
      return current.child;
    },
    get output() {
      return current.output;
    },
    get restarts() {
      return restarts;
    },
    async stop() {
      stopping = true;
      wake();
      await current.stop();
    },
  };
}
