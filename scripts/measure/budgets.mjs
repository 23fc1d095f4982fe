// The byte budgets of the home page, in one place: `scripts/test/check-budgets.mjs` enforces them in
// `npm test`, and `npm run bench` prints them beside what it measured (page-weight.mjs says what each counts).
export const BUDGETS = {
  /** The head, its inline CSS, the header and the hero, gzipped: TCP's initial window, one round trip. */
  firstRoundTrip: 14 * 1024,
  /** The page's inline script: the menu's link handler and the booking form's layer (decision 030). */
  inlineScript: 6 * 1024,
  /** No module on arrival: the page is HTML (decision 030). */
  jsOnArrival: 0,
  /** The booking form's island: React and the form, no supabase-js (decisions 005 and 030). */
  jsOnIntent: 52 * 1024,
  /** Everything through one Send: the island, the toasts and supabase-js. */
  jsThroughSend: 110 * 1024,
};

export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
