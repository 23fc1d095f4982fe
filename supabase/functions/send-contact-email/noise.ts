/**
 * Lines anyone can cause, bounded (docs/decisions/036): per interval, the first line of a kind (a
 * refusal under load, a fault of ours) keeps its level; the rest of that kind in the interval are
 * counted, and the count goes with the next first line. However often a stranger repeats a request,
 * the owner reads one line of its kind per interval. Per isolate, in memory: at most MAX_KINDS kinds,
 * the rest share one.
 */

/** How long one line stands for its kind. */
export const NOISE_INTERVAL_MS = 60_000;
const MAX_KINDS = 20;
const OTHER = "(other kinds)";

export type Noise = ReturnType<typeof createNoise>;

export function createNoise(now: () => number, intervalMs = NOISE_INTERVAL_MS) {
  const kinds = new Map<string, { since: number; counted: number }>();
  /**
   * `first`: log this one at its level, with `counted`, the lines of this kind left out since the last
   * one logged. Otherwise it is counted (the caller logs it at info, or not at all).
   */
  return function noise(kind: string): { first: true; counted: number } | { first: false } {
    const at = now();
    for (const [key, entry] of kinds) if (at - entry.since >= intervalMs && entry.counted === 0) kinds.delete(key);
    const key = kinds.has(kind) || kinds.size < MAX_KINDS ? kind : OTHER;
    const entry = kinds.get(key);
    if (!entry || at - entry.since >= intervalMs) {
      kinds.set(key, { since: at, counted: 0 });
      return { first: true, counted: entry?.counted ?? 0 };
    }
    entry.counted++;
    return { first: false };
  };
}
