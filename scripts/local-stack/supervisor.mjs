// The local stack supervises its parts as the platform does (docs/decisions/025, 032):
// - a part the platform would start afresh (the function: the edge runtime starts a new worker for the
//   next request; the site) is started again at once when its process exits without being asked to, and
//   a line says why and how often. Only a crash loop waits: a part that failed to start, or ended soon
//   after it was ready, waits a little longer each time in a row (at most a couple of seconds), so a
//   function that cannot start does not spin; a part that ran for a while is started again at once,
//   however often it was killed;
// - a part that cannot come back on its own (the database, the SMTP catcher) is watched by the caller
//   (stack.mjs), which stops the whole stack and names it.

/** Exits counted in the line a restart writes: those of the last minute. */
export const RESTART_WINDOW_MS = 60_000;
/** A part that ends sooner than this after it was ready counts as crashing, not as ended. */
export const CRASH_WITHIN_MS = 2_000;
/** The longest pause before a start, however long the crash loop. */
export const MAX_RESTART_DELAY_MS = 2_000;
/** The pause before a start after `crashes` crashes in a row: none after the first, then 0.25 s, 0.5 s, 1 s, 2 s. */
export function restartDelayMs(crashes) {
  return crashes <= 1 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 250 * 2 ** (crashes - 2));
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
 * @param {{ log: (line: string) => void, stopping?: () => boolean, now?: () => number, onStart?: () => void }} options
 *   `stopping`: whether the whole stack is stopping (a Ctrl-C reaches every process of the terminal at
 *   once: a part that ends then is not started again); `onStart`: after each start (the run record)
 */
export async function keepRunning(name, start, { log, stopping: stackStopping = () => false, now = Date.now, onStart = () => {} }) {
  let current = await start();
  let readyAt = now();
  onStart();
  let stopping = false;
  let restarts = 0;
  /** When it exited unasked, within the window (for the line only: the pause depends on crashes). */
  const exits = [];
  /** Failed starts and quick exits in a row. */
  let crashes = 0;
  let wake = () => {};

  const watch = async (proc) => {
    const code = await proc.exited;
    exits.push(now());
    while (exits[0] < now() - RESTART_WINDOW_MS) exits.shift();
    crashes = now() - readyAt < CRASH_WITHIN_MS ? crashes + 1 : 1;
    for (;;) {
      if (stopping || stackStopping() || proc !== current) return;
      const delay = restartDelayMs(crashes);
      log(
        `${name} exited (${howItEnded(code)}); starting it again${delay ? ` in ${delay / 1000} s` : ""} ` +
          `(${exits.length} ${exits.length === 1 ? "exit" : "exits"} in the last minute, ${restarts} restarts so far` +
          `${delay ? `; ${crashes} quick exits in a row` : ""})`,
      );
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, delay);
        wake = () => (clearTimeout(timer), resolve());
      });
      if (stopping || stackStopping()) return;
      try {
        current = await start();
        readyAt = now();
        restarts++;
        onStart();
        log(`${name} is running again`);
        return watch(current);
      } catch (error) {
        // Its port still held, or it died while starting: a crash, so the pause grows.
        crashes++;
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
