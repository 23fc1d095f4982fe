/**
 * Inlined in the page, before React's code can run: the channel React's scheduler sends its slices of
 * work through, made to survive the back/forward cache (issue 34, decision 026).
 *
 * React renders in slices: its scheduler (the `scheduler` package) posts itself a message on a
 * MessageChannel for each slice and posts the next one only when that one arrives. WebKit loses a
 * message that is on its way when the page goes into its back/forward cache, and after the page comes
 * back the channel delivers nothing more (WebKitGTK 2.50: a message loop on a MessageChannel stopped
 * for good on Back in 3 tries of 3, and a message posted at `pagehide` arrived once in 3). React then
 * never renders again. A visitor who left while their Send was on its way came Back to a page frozen
 * on "Sending...", its fields cleared and no toast: the Send had succeeded, but React could not show it.
 *
 * The scheduler takes `setImmediate` instead where the global exists when its code is evaluated
 * (framework-assumptions.ts, SCHEDULER_TASKS). So the page gives it one: a MessageChannel as before,
 * and, when the page is shown again from the cache, a new channel that carries every task still
 * waiting. A task runs once, whichever message reaches it first. It must stay self-contained: it is
 * serialised into the page with `Function.prototype.toString`.
 */

/** What the function installs into and listens on: `window` in the page, a stand-in in unit tests. */
export type SchedulerGlobal = Pick<Window, "addEventListener"> & {
  MessageChannel?: typeof MessageChannel;
  setImmediate?: (task: () => void) => number;
  /** The pair's other half (the scheduler never calls it; code that finds one expects both). */
  clearImmediate?: (id: number) => void;
};

export function installSchedulerChannel(global: SchedulerGlobal) {
  // A platform's own (none of the browsers today) is left alone; without channels the scheduler uses timers.
  const Channel = global.MessageChannel;
  if (typeof global.setImmediate === "function" || typeof Channel !== "function") return;
  const waiting = new Map<number, () => void>();
  let next = 0;
  let channel: MessageChannel | undefined;
  let port: MessagePort;
  const open = () => {
    channel?.port1.close();
    channel = new Channel();
    channel.port1.onmessage = (event: MessageEvent<number>) => {
      const task = waiting.get(event.data);
      if (!task) return; // run already: its message was sent again
      waiting.delete(event.data);
      task();
    };
    port = channel.port2;
  };
  open();
  global.setImmediate = (task) => {
    const id = ++next;
    waiting.set(id, task);
    port.postMessage(id);
    return id;
  };
  global.clearImmediate = (id) => void waiting.delete(id);
  // A new channel for whatever comes next too: the old one may deliver nothing more.
  global.addEventListener("pageshow", (event) => {
    if (!(event as PageTransitionEvent).persisted) return;
    open();
    for (const id of waiting.keys()) port.postMessage(id);
  });
}

/** The inline script's body. */
export function schedulerChannelSource() {
  return `(${installSchedulerChannel.toString()})(window);`;
}
