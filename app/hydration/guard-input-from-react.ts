/**
 * While React hydrates, the visitor's input stays with the page as plain HTML (decision 016).
 *
 * React 18 hydrates each part of the page (a Suspense boundary, HydrationPart.tsx) in slices of a few
 * milliseconds, so a key or tap between two slices is handled at once. But a key, tap or click that
 * reaches a part React has not hydrated yet makes React hydrate that part synchronously, inside the
 * event, before the browser may paint the character or the press: 70 to 160 ms at CPU ×4, 400 ms at
 * ×8, measured on the booking form while the visitor typed on. A focus or pointer moving over such a
 * part does the same a moment later, in one unsliced task.
 *
 * So until every part has hydrated, those events do not reach React's listeners: this module stops
 * them at the window, after the page's inline listeners (the input tracker, the menu's link handler)
 * have seen them. Everything they do by default still happens (a character is typed, a link followed,
 * a `<details>` opened, the form posted without JavaScript, which works), exactly as before the
 * scripts arrived. React's handlers are not needed by then: the page's fields are uncontrolled, and
 * the FAQ reads the native accordion's state when it takes over. Once the last part has committed,
 * the guard is lifted and `data-hydrated` is set on `<html>` (what the tests wait for). If that takes
 * longer than the guard's deadline, the guard is lifted anyway and `data-guard-expired` says so: input
 * then reaches React, which hydrates as by default; `data-hydrated` still comes when the parts have.
 */

import { startTransition } from "react";
import { REACT_HYDRATING_EVENTS } from "./framework-assumptions";

/**
 * Every event React's root listener hydrates for: the discrete ones it hydrates synchronously for,
 * and the continuous ones it queues and hydrates for in an unsliced task (a private assumption about
 * react-dom 18.3: framework-assumptions.ts).
 */
export const GUARDED_EVENTS = [...REACT_HYDRATING_EVENTS.discrete, ...REACT_HYDRATING_EVENTS.continuous] as const;

/**
 * If the parts have not all reported within this long (a broken assumption, a part that never
 * commits), the guard is lifted anyway: React then hydrates as it does by default.
 */
export const GUARD_DEADLINE_MS = 15_000;

/** Set on `<html>` once every part of the page has hydrated (and React receives the visitor's input). */
export const HYDRATED_ATTRIBUTE = "data-hydrated";

/**
 * Set on `<html>` when the guard's deadline passed before every part had hydrated: React receives the
 * visitor's input from then on, and hydrates as by default.
 */
export const GUARD_EXPIRED_ATTRIBUTE = "data-guard-expired";

/** Either mark on `<html>` means React receives the visitor's input (the form's own handlers run). */
export const REACT_HEARS_INPUT_ATTRIBUTES = [HYDRATED_ATTRIBUTE, GUARD_EXPIRED_ATTRIBUTE] as const;

/** One part of the page: pending from the commit that renders it until its own content is hydrated. */
export type PartToken = { hydrated: boolean };

/** The page's parts while they hydrate; `unguard` lets input through (at the deadline, or when all have). */
type Hydration = { pending: Set<PartToken>; shell: boolean; unguard(): void; done(): void };
let hydration: Hydration | undefined;

/**
 * Starts guarding the visitor's input from React. Call it before `hydrateRoot`. Returns a
 * function that ends it at once, as if every part had hydrated (used by tests; the page ends it when
 * hydration is done).
 * With `guard: false` (react-dom is not the version the guarded events were read from) nothing is guarded,
 * and `data-hydrated` still marks the end of hydration.
 */
export function guardInputUntilHydrated({
  target = window,
  guard: guarding = true,
  deadlineMs = GUARD_DEADLINE_MS,
}: { target?: Window; guard?: boolean; deadlineMs?: number } = {}): () => void {
  const stop = (event: Event) => event.stopPropagation();
  const options = { capture: true } as const;
  const guarded = guarding ? GUARDED_EVENTS : [];
  for (const type of guarded) target.addEventListener(type, stop, options);
  // A link's click stays with the plain HTML, but the browser still follows it: an in-page link (Book
  // Now, the menu) or Back between fragments fires `popstate`, and Remix re-renders at once (its
  // `RemixBrowser` sets the location urgently, with a new context value). An urgent update reaching
  // a part React has not hydrated makes React drop that part's server HTML and render it afresh
  // (React error 421): what the visitor typed, the answer they opened and focus are lost. So while
  // guarded, the router hears of it in a transition, which waits for the parts to hydrate instead.
  let replaying = false;
  const inTransition = (event: PopStateEvent) => {
    if (replaying) return;
    event.stopImmediatePropagation();
    replaying = true;
    try {
      startTransition(() => void target.dispatchEvent(new PopStateEvent("popstate", { state: event.state as unknown })));
    } finally {
      replaying = false;
    }
  };
  if (guarding) target.addEventListener("popstate", inTransition, options);
  const root = target.document.documentElement;
  let guardedNow = true;
  const deadline = setTimeout(() => {
    current.unguard();
    root.setAttribute(GUARD_EXPIRED_ATTRIBUTE, "");
  }, deadlineMs);
  const current: Hydration = {
    pending: new Set(),
    shell: false,
    unguard() {
      if (!guardedNow) return;
      guardedNow = false;
      clearTimeout(deadline);
      for (const type of guarded) target.removeEventListener(type, stop, options);
      target.removeEventListener("popstate", inTransition, options);
    },
    done() {
      if (hydration !== current) return;
      hydration = undefined;
      current.unguard();
      root.setAttribute(HYDRATED_ATTRIBUTE, "");
    },
  };
  hydration = current;
  return () => current.done();
}

function doneIfAllHydrated() {
  if (hydration && hydration.shell && hydration.pending.size === 0) hydration.done();
}

/** The page's shell (everything outside the parts) has committed: the parts in it are known. */
export function shellHydrated() {
  if (!hydration) return;
  hydration.shell = true;
  doneIfAllHydrated();
}

/** A part is on the page and its content may not be hydrated yet. */
export function partMounted(part: PartToken) {
  if (hydration && !part.hydrated) hydration.pending.add(part);
}

/** A part's content has committed (hydrated, or rendered afresh where hydration failed). */
export function partHydrated(part: PartToken) {
  part.hydrated = true;
  hydration?.pending.delete(part);
  doneIfAllHydrated();
}

/** A part has left the page. */
export function partUnmounted(part: PartToken) {
  hydration?.pending.delete(part);
  doneIfAllHydrated();
}
