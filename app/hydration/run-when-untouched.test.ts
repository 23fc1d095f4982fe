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

  it("does not wait for scrolling the page does for itself: a focus bringing its field into view, a link scrolling to its anchor", async () => {
    for (const cause of [new FocusEvent("focusin"), new MouseEvent("click"), new HashChangeEvent("hashchange")]) {
      const callback = vi.fn();
      whenUntouched(() => undefined);
      await vi.advanceTimersByTimeAsync(3000);
      window.dispatchEvent(cause);
      await vi.advanceTimersByTimeAsync(200); // a click's own settling time
      whenUntouched(callback);
      // A smooth scroll of a second and a half, as after a link to an anchor far down a long page.
      for (let i = 0; i < 15 && callback.mock.calls.length === 0; i++) {
        window.dispatchEvent(new Event("scroll"));
        await vi.advanceTimersByTimeAsync(100);
      }
      expect(callback, `scrolling after a ${cause.type}`).toHaveBeenCalledTimes(1);
    }
  });

  it("still waits for the visitor's own scrolling after such a focus: a wheel, a finger, a key", async () => {
    for (const gesture of [new WheelEvent("wheel"), new Event("touchmove"), new KeyboardEvent("keydown", { code: "PageDown" })]) {
      const callback = vi.fn();
      whenUntouched(() => undefined);
      await vi.advanceTimersByTimeAsync(3000);
      window.dispatchEvent(new FocusEvent("focusin"));
      window.dispatchEvent(gesture);
      if (gesture.type === "keydown") window.dispatchEvent(new KeyboardEvent("keyup", { code: "PageDown" }));
      whenUntouched(callback);
      for (let i = 0; i < 20; i++) {
        window.dispatchEvent(new Event("scroll"));
        await vi.advanceTimersByTimeAsync(100);
      }
      expect(callback, `scrolling after a ${gesture.type}`).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(3000);
      expect(callback).toHaveBeenCalledTimes(1);
    }
  });

  it("can be cancelled", async () => {
    const callback = vi.fn();
    const cancel = whenUntouched(callback);
    cancel();
    await vi.advanceTimersByTimeAsync(3000);
    expect(callback).not.toHaveBeenCalled();
  });
});
