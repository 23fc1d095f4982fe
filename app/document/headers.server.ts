/**
 * Security and caching headers for every document (docs/decisions/006 and 012).
 * - "public": the page is the same for every visitor. Browsers revalidate on each visit (a cheap
 *   304 with the ETag); shared caches (a CDN) serve it for 5 minutes, then serve it stale for up to a
 *   day while they fetch a fresh copy in the background, so the origin renders at most once per
 *   cache node and 5 minutes. A deploy purges the CDN (README, "Behind a CDN").
 * - "private": anything that answers one visitor (the no-JS form's result) or may change per request.
 */
import { contentSecurityPolicy } from "./csp.server";

export const CACHE_CONTROL = {
  public: "public, max-age=0, s-maxage=300, stale-while-revalidate=86400",
  private: "private, no-store",
} as const;

export function documentHeaders(
  headers: Headers,
  {
    scriptHashes,
    supabaseUrl,
    liveReload,
    cache,
  }: { scriptHashes: readonly string[]; supabaseUrl: string; liveReload: boolean; cache: keyof typeof CACHE_CONTROL },
) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Content-Security-Policy", contentSecurityPolicy({ scriptHashes, supabaseUrl, liveReload }));
  headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()");
  headers.set("Cache-Control", CACHE_CONTROL[cache]);
  // remix-serve compresses: caches must keep the gzip, brotli and plain copies apart.
  headers.set("Vary", "Accept-Encoding");
  return headers;
}
