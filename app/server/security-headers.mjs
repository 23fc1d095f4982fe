// The headers every response of the site carries, in one home (docs/decisions/024): the site's HTTP server
// adds them to each of its answers (response-headers.server.ts), and the local CDN's nginx to the answers
// it makes itself (scripts/local-stack/cdn.mjs, docs/decisions/032). Plain JavaScript so that both the
// site's build and a Node script read this one list.

/**
 * What every response says, whoever made it.
 * @param {{ production: boolean }} options
 * @returns {Record<string, string>}
 */
export function securityHeaders({ production }) {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()",
    "Content-Security-Policy": NOT_A_DOCUMENT_CSP,
    // Production only: a developer's browser must not be held to HTTPS for localhost by `npm run dev`.
    ...(production ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

/**
 * What is not a document runs nothing, is framed nowhere (an SVG or a JSON answer opened as a page
 * included); documents send their own policy (app/document/csp.server.ts). A file opened on its own is
 * still shown the browser's way: its viewer's stylesheet (WebKit's for plain text), the site's icon
 * (Firefox asks for it) and the viewer's own images are let through, scripts never. Chromium's XML
 * viewer (sitemap.xml) draws its fold arrows as `data:` SVG images (docs/decisions/032): an image,
 * even an SVG one, runs no script, and these answers hold nothing a visitor wrote, so `data:` images
 * open nothing to anyone.
 */
export const NOT_A_DOCUMENT_CSP =
  "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** An error (4xx, 5xx) that does not say how long it may be kept is kept nowhere. */
export const ERROR_CACHE_CONTROL = "no-store";
