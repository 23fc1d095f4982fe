import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { INPUT_TRACKER_GLOBAL, STALE_KEY_MS } from "./inline-input-tracker";
import { whenUntouched } from "./run-when-untouched";

describe("whenUntouched: a moment when no tap or key press is under way", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    delete (window as unknown as Record<string, unknown>)[INPUT_TRACKER_GLOBAL];
  });
  afterEach(() => vi.useRealTimers());

  const fire = (type: string, init: PointerEventInit & KeyboardEventInit = {}) =>
    window.dispatchEvent(
      type.startsWith("key") ? new KeyboardEvent(type, { code: "Space", ...init }) : new PointerEvent(type, { pointerId: 1, ...init }),
    );

  it("runs once when nothing happens", async () => {
    const callback = vi.fn();
    whenUntouched(callback);
    await vi.advanceTimersByTimeAsync(3000);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it("waits while a finger is down, even one that went down before it was asked, and until its click has settled", async () => {
    const callback = vi.fn();
    whenUntouched(() => undefined); // the tracker is running, as the page's inline script starts it
    await vi.advanceTimersByTimeAsync(3000);
    fire("pointerdown");
    whenUntouched(callback);
    await vi.advanceTimersByTimeAsync(5000);
    expect(callback).not.toHaveBeenCalled();
    fire("pointerup");
    window.dispatchEvent(new MouseEvent("click"));
    await vi.advanceTimersByTimeAsync(100);
    expect(callback).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3000);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it("waits while a key is held down, repeating (Space activates on keyup)", async () => {
    const callback = vi.fn();
    whenUntouched(() => undefined);
    await vi.advanceTimersByTimeAsync(3000);
    fire("keydown");
    whenUntouched(callback);
    for (let held = 0; held < 10; held++) {
      await vi.advanceTimersByTimeAsync(500);
      fire("keydown", { repeat: true });
    }
    expect(callback).not.toHaveBeenCalled();
    fire("keyup");
    await vi.advanceTimersByTimeAsync(3000);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it("does not wait for ever for a keyup that never comes (Cmd+V on a Mac keeps V's)", async () => {
    const callback = vi.fn();
    whenUntouched(() => undefined);
    await vi.advanceTimersByTimeAsync(3000);
    fire("keydown", { code: "KeyV", metaKey: true });
    whenUntouched(callback);
    await vi.advanceTimersByTimeAsync(STALE_KEY_MS - 500);
    expect(callback).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3000);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it("waits while the page scrolls, by wheel, touch or keys", async () => {
    const callback = vi.fn();
    whenUntouched(() => undefined);
    await vi.advanceTimersByTimeAsync(3000);
    whenUntouched(callback);
    for (let i = 0; i < 20; i++) {
      window.dispatchEvent(new Event("scroll"));
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(callback).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3000);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it("can be cancelled", async () => {
    const callback = vi.fn();
    const cancel = whenUntouched(callback);
    cancel();
    await vi.advanceTimersByTimeAsync(3000);
    expect(callback).not.toHaveBeenCalled();
  });
});
