// The byte budgets of the first view, in one place: `scripts/test/check-budgets.mjs` enforces them in
// `npm test`, and `npm run bench` prints them beside what it measured.
export const BUDGETS = {
  /** JavaScript on arrival: none, the home page hydrates when the visitor starts on the booking form (decision 016). */
  jsGzip: 0,
  /** JavaScript on the first intent: React, Remix and the page, no supabase-js (decision 005). */
  intentJsGzip: 107 * 1024,
  /** HTML + render-blocking CSS: one round trip's worth of TCP initial window. */
  htmlCssGzip: 14 * 1024,
};

export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
