/**
 * The headers of a document: its Content-Security-Policy (and where it reports), and caching
 * (docs/decisions/006, 012 and 024). The headers every response carries, documents included
 * (nosniff, HSTS, Referrer-Policy, …), are added by the HTTP server (app/server/response-headers.server.ts).
 * - "public": the page is the same for every visitor. Browsers revalidate on each visit (a cheap
 *   304 with the ETag); shared caches (a CDN) serve it for 5 minutes, then serve it stale for up to a
 *   day while they fetch a fresh copy in the background, so the origin renders at most once per
 *   cache node and 5 minutes. A deploy purges the CDN (README, "Behind a CDN").
 * - "private": anything that answers one visitor (the no-JS form's result) or may change per request.
 */
import { contentSecurityPolicy, CSP_REPORT_GROUP } from "./csp.server";

export const CACHE_CONTROL = {
  public: "public, max-age=0, s-maxage=300, stale-while-revalidate=86400",
  private: "private, no-store",
} as const;

export function documentHeaders(
  headers: Headers,
  {
    scriptHashes,
    styleHashes,
    supabaseUrl,
    liveReload,
    reportUrl,
    cache,
  }: {
    scriptHashes: readonly string[];
    styleHashes: readonly string[];
    supabaseUrl: string;
    liveReload: boolean;
    reportUrl?: string;
    cache: keyof typeof CACHE_CONTROL;
  },
) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Content-Security-Policy", contentSecurityPolicy({ scriptHashes, styleHashes, supabaseUrl, liveReload, reportUrl }));
  if (reportUrl) headers.set("Reporting-Endpoints", `${CSP_REPORT_GROUP}="${reportUrl}"`);
  headers.set("Cache-Control", CACHE_CONTROL[cache]);
  // remix-serve compresses: caches must keep the gzip, brotli and plain copies apart.
  headers.set("Vary", "Accept-Encoding");
  return headers;
}
