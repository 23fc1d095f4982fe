/**
 * What the visitor's fingers, pointer and keys are doing, tracked from the first paint (decision 016).
 * The page's scripts arrive later (hydration waits for the booking form), and whatever swaps elements
 * after them (the FAQ's take-over by Radix) must not do it while a tap or key press that began before
 * is still under way: the tap would land on an element that is gone. An event listener added late
 * cannot know that a finger is already down, so this one is inlined in the page and runs at once.
 * It must stay self-contained: it is serialised into the page with `Function.prototype.toString`.
 */
export type InputState = { pointers: Set<number>; keys: Set<string>; last: number };

export const INPUT_STATE_GLOBAL = "__pageInput";

export function trackInput(name: string) {
  const state: InputState = { pointers: new Set(), keys: new Set(), last: 0 };
  (window as unknown as Record<string, InputState>)[name] = state;
  const options = { capture: true, passive: true } as const;
  const touched = () => (state.last = performance.now());
  addEventListener("pointerdown", (e) => (state.pointers.add(e.pointerId), touched()), options);
  addEventListener("pointerup", (e) => (state.pointers.delete(e.pointerId), touched()), options);
  addEventListener("pointercancel", (e) => (state.pointers.delete(e.pointerId), touched()), options);
  addEventListener("keydown", (e) => (state.keys.add(e.code), touched()), options);
  addEventListener("keyup", (e) => (state.keys.delete(e.code), touched()), options);
  addEventListener("click", touched, options);
  // Focus leaving the page loses its keyups and pointerups: do not wait for them for ever.
  addEventListener("blur", () => (state.pointers.clear(), state.keys.clear()), options);
}

/** The tracker's state, or undefined where the page did not inline it (tests, other documents). */
export function inputState(): InputState | undefined {
  return (window as unknown as Record<string, InputState | undefined>)[INPUT_STATE_GLOBAL];
}

/** The inline script's body. */
export function trackInputSource() {
  return `(${trackInput.toString()})(${JSON.stringify(INPUT_STATE_GLOBAL)});`;
}
