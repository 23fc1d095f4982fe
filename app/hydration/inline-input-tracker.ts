/**
 * Inlined in the page: what the visitor's fingers, pointer and keys are doing, tracked from the first paint (decision 016).
 * The page's scripts arrive later (hydration waits for the booking form), and whatever swaps elements
 * after them (the FAQ's take-over by Radix) must not do it while a tap or key press that began before
 * is still under way: the tap would land on an element that is gone. An event listener added late
 * cannot know that a finger is already down, so this one is inlined in the page and runs at once.
 * Scrolling the visitor does counts as input too (wheel, touch, keys, the scrollbar): work done while
 * they scroll shows as frames they see stutter. Scrolling the page does for itself does not (issue 34):
 * a focus bringing its field into view (by Tab, autofill, a screen reader or a script) or a link
 * scrolling smoothly to its anchor. Counting those made a keyboard visitor wait for the scroll to end
 * before the form's scripts ran: four times as long as a tap.
 * It must stay self-contained: it is serialised into the page with `Function.prototype.toString`.
 */
export type InputState = {
  pointers: Set<number>;
  /** Keys down, with when each last went down (a held key repeats its keydown). */
  keys: Map<string, number>;
  /** When the last input of any kind happened. */
  last: number;
  /** Whether input is under way: a finger, button or key down, or any input within `quietMs`. */
  busy(quietMs: number): boolean;
};

export const INPUT_TRACKER_GLOBAL = "__pageInput";
/**
 * A key whose keydown has not repeated for this long, with no keyup, is not held: its keyup was lost
 * (the OS kept it, as macOS does for Cmd+V's V). A held key repeats within about half a second.
 */
export const STALE_KEY_MS = 3000;

export function trackInput(name: string, staleKeyMs: number) {
  const state: InputState = {
    pointers: new Set(),
    keys: new Map(),
    last: 0,
    busy(quietMs) {
      const now = performance.now();
      for (const [code, at] of state.keys) if (now - at >= staleKeyMs) state.keys.delete(code);
      return state.pointers.size > 0 || state.keys.size > 0 || now - state.last < quietMs;
    },
  };
  (window as unknown as Record<string, InputState>)[name] = state;
  const options = { capture: true, passive: true } as const;
  const touched = () => (state.last = performance.now());
  // Whether scrolling now is the page's own: after a focus, a click (an in-page link) or a fragment
  // change, until the visitor's next gesture that can scroll (a finger, wheel, key or pointer press,
  // the scrollbar's included). A fling after a finger lifts follows a touchmove, so it still counts.
  let pageScrolls = false;
  const gesture = () => ((pageScrolls = false), touched());
  const pageWillScroll = () => (pageScrolls = true);
  addEventListener("pointerdown", (e) => (state.pointers.add(e.pointerId), gesture()), options);
  addEventListener("pointerup", (e) => (state.pointers.delete(e.pointerId), touched()), options);
  addEventListener("pointercancel", (e) => (state.pointers.delete(e.pointerId), touched()), options);
  addEventListener("keydown", (e) => (state.keys.set(e.code, performance.now()), gesture()), options);
  addEventListener("keyup", (e) => (state.keys.delete(e.code), touched()), options);
  addEventListener("click", () => (touched(), pageWillScroll()), options);
  for (const type of ["focusin", "hashchange"]) addEventListener(type, pageWillScroll, options);
  for (const type of ["wheel", "touchmove"]) addEventListener(type, gesture, options);
  addEventListener("scroll", () => pageScrolls || touched(), options);
  // Focus leaving the page loses its keyups and pointerups: do not wait for them for ever.
  addEventListener("blur", () => (state.pointers.clear(), state.keys.clear()), options);
}

/** The tracker's state, or undefined where the page did not inline it (tests, other documents). */
export function inputState(): InputState | undefined {
  return (window as unknown as Record<string, InputState | undefined>)[INPUT_TRACKER_GLOBAL];
}

/** The inline script's body. */
export function inlineInputTrackerSource() {
  return `(${trackInput.toString()})(${JSON.stringify(INPUT_TRACKER_GLOBAL)},${STALE_KEY_MS});`;
}
