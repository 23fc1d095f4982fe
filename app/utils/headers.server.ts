/**
 * Security and caching headers for every document response (see docs/decisions/006-security-headers.md).
 * The CSP allows scripts only from this origin and inline ones carrying this request's nonce.
 */
export function documentHeaders(headers: Headers, { nonce, supabaseUrl }: { nonce: string; supabaseUrl: string }) {
  const supabaseOrigin = new URL(supabaseUrl).origin;
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // react-hot-toast injects its keyframes with a <style> tag at run time (goober); scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${supabaseOrigin}`,
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  headers.set("Content-Security-Policy", csp);
  headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set(
    "Permissions-Policy",
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()",
  );
  // Each page carries a fresh nonce and form key: browsers may keep it (back/forward cache) but
  // must revalidate, and shared caches must not serve one visitor's page to another.
  headers.set("Cache-Control", "private, no-cache");
  return headers;
}
