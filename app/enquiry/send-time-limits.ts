/**
 * How long each way of sending waits for the function before the visitor is told it failed (decision
 * 026). Both are far below the platform's own limit, an edge function's 150 s of wall clock: nobody waits
 * on "Sending..." that long, and a function still at work by then is stuck, not slow.
 *
 * - The no-JavaScript path (action.server.ts): the site's server calls the function over the data
 *   centre's network. 15 s is above the slowest good answer measured (9.3 s at p99 while PostgreSQL was
 *   paused for 10 s in the fault suite, decision 025) with room to spare.
 * - The browser path (send.client.ts): the same wait, plus the visitor's own network both ways (a slow
 *   phone connection's upload and round trips, a few seconds at worst).
 *
 * Giving up never loses or doubles an enquiry: the values stay in the form, and a second Send of the
 * same values carries the same Idempotency-Key, so an enquiry the function stored after all is stored once.
 */
export const SEND_TIME_LIMITS_MS = {
  noJavaScript: 15_000,
  browser: 20_000,
} as const;
