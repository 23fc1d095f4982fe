import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { installSchedulerChannel, schedulerChannelSource, type SchedulerGlobal } from "./inline-scheduler-channel";

/**
 * A page's global with MessageChannels that can lose what they carry, as WebKit's do across its
 * back/forward cache: `leave()` drops every message on its way and every later one on the channels
 * made so far; `comeBack()` fires `pageshow` with `persisted`, as a page shown again from the cache.
 */
function page() {
  const listeners: ((event: Event) => void)[] = [];
  const dead = new Set<unknown>();
  const queue: { channel: unknown; deliver: () => void }[] = [];
  class LossyChannel {
    port1 = { onmessage: null as ((event: MessageEvent<number>) => void) | null, close: () => void dead.add(this) };
    port2 = {
      postMessage: (data: number) => {
        if (!dead.has(this)) queue.push({ channel: this, deliver: () => this.port1.onmessage?.({ data } as MessageEvent<number>) });
      },
    };
  }
  const channels: LossyChannel[] = [];
  const global = {
    MessageChannel: class extends LossyChannel {
      constructor() {
        super();
        channels.push(this);
      }
    },
    addEventListener: (type: string, listener: (event: Event) => void) => type === "pageshow" && listeners.push(listener),
  } as unknown as SchedulerGlobal;
  installSchedulerChannel(global);
  return {
    global,
    /** Delivers the messages on their way, in order, until none is left. */
    flush() {
      while (queue.length > 0) {
        const next = queue.shift()!;
        if (!dead.has(next.channel)) next.deliver();
      }
    },
    leave() {
      for (const channel of channels) dead.add(channel);
    },
    comeBack(persisted = true) {
      for (const listener of listeners) listener({ type: "pageshow", persisted } as unknown as Event);
    },
  };
}

describe("the channel React's scheduler sends its work through (inline, before React)", () => {
  it("runs each task once, later, in the order given, and not a task that was cleared", () => {
    const { global, flush } = page();
    const ran: number[] = [];
    const ids = [1, 2, 3].map((n) => global.setImmediate!(() => ran.push(n)));
    global.clearImmediate!(ids[1]!);
    expect(ran, "nothing runs inside the call").toEqual([]);
    flush();
    expect(ran).toEqual([1, 3]);
  });

  it("a message loop (the scheduler's) lost as the page goes into the back/forward cache runs on when the page comes back", () => {
    const { global, flush, leave, comeBack } = page();
    let slices = 0;
    // The scheduler's loop: each slice posts the next, until its work is done.
    const slice = () => void (++slices < 10 && global.setImmediate!(slice));
    global.setImmediate!(slice);
    leave();
    flush();
    expect(slices, "frozen in the cache").toBe(0);
    comeBack();
    flush();
    expect(slices, "every slice ran after Back").toBe(10);
  });

  it("whatever is lost and whenever the page comes back, each task runs exactly once; tasks after Back go through the new channel", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }), fc.boolean(), (before, lost, delivered) => {
        const { global, flush, leave, comeBack } = page();
        const runs = new Map<string, number>();
        const task = (name: string) => () => runs.set(name, (runs.get(name) ?? 0) + 1);
        for (let i = 0; i < before; i++) global.setImmediate!(task(`before ${i}`));
        if (delivered) flush();
        leave();
        for (let i = 0; i < lost; i++) global.setImmediate!(task(`lost ${i}`));
        comeBack();
        global.setImmediate!(task("after"));
        flush();
        expect([...runs.values()].every((n) => n === 1)).toBe(true);
        expect(runs.size).toBe(before + lost + 1);
      }),
    );
  });

  it("a page shown again without the cache (a new document) changes nothing; a message that arrives late after all runs nothing twice", () => {
    const { global, flush, comeBack } = page();
    let runs = 0;
    global.setImmediate!(() => runs++);
    comeBack(false);
    // Shown from the cache while the first message was merely late: it is sent again, and both arrive.
    comeBack(true);
    flush();
    expect(runs).toBe(1);
  });

  it("leaves a setImmediate the platform has alone, and a page without MessageChannel to the scheduler's timers", () => {
    const own = () => 1;
    const global = { setImmediate: own, MessageChannel, addEventListener: () => undefined } as unknown as SchedulerGlobal;
    installSchedulerChannel(global);
    expect(global.setImmediate).toBe(own);
    const bare = { addEventListener: () => undefined } as unknown as SchedulerGlobal;
    installSchedulerChannel(bare);
    expect(bare.setImmediate).toBeUndefined();
  });

  it("is self-contained, as the page carries it: the serialised script alone gives a window a working setImmediate", async () => {
    const window = { MessageChannel, addEventListener: () => undefined } as unknown as SchedulerGlobal;
    new Function("window", schedulerChannelSource())(window);
    const ran = await new Promise<boolean>((resolve) => window.setImmediate!(() => resolve(true)));
    expect(ran).toBe(true);
  });
});
