/**
 * Runs `callback` once, in a task of its own, at a moment when no tap, click or key press is under way
 * anywhere on the page: after the browser is idle, never while a finger, pointer button or key is down
 * (including one that went down before the page's scripts arrived: app/hydration/inline-input-tracker.ts), and
 * not within `settleMs` of the last one (the click that follows a tap). The FAQ swaps its native
 * accordion for Radix's this way (decision 016): a visitor's input lands wholly on the old elements or
 * wholly on the new ones, never half on each (a tap whose element is replaced under the finger is lost).
 *
 * Returns a function that cancels it.
 */
import { inputState, trackInput, INPUT_TRACKER_GLOBAL, STALE_KEY_MS } from "./inline-input-tracker";

export function whenUntouched(callback: () => void, { settleMs = 150 } = {}): () => void {
  // Where the page did not inline the tracker (a component test), start it now.
  if (!inputState()) trackInput(INPUT_TRACKER_GLOBAL, STALE_KEY_MS);
  const state = inputState()!;
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;

  const stop = () => {
    done = true;
    clearTimeout(timer);
    if (idle !== undefined && "cancelIdleCallback" in window) window.cancelIdleCallback(idle);
  };
  const attempt = () => {
    if (done) return;
    if (state.busy(settleMs)) {
      timer = setTimeout(schedule, settleMs);
      return;
    }
    stop();
    callback();
  };
  const schedule = () => {
    if (done) return;
    if ("requestIdleCallback" in window) idle = window.requestIdleCallback(attempt, { timeout: 2000 });
    else timer = setTimeout(attempt, 50);
  };
  schedule();
  return stop;
}
