/**
 * Content-Security-Policy by hash: every inline script and every inline stylesheet of a rendered
 * document is allowed by the SHA-256 of its text, so the document carries nothing per request (no
 * nonce) and can be cached, and nothing else inline runs or styles the page (decision 024: no
 * 'unsafe-inline' for styles either). The inert scripts of deferred hydration are hashed too: the
 * loader runs their text as new inline scripts, which the browser checks against the same hashes.
 */
import { createHash } from "node:crypto";

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;
// Data blocks the browser never runs (structured data) need no hash.
const DATA_BLOCK = /\btype="application\/(ld\+)?json"/i;

/** `'sha256-…'` sources for every inline script in `html`, in document order, without repeats. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = "", text = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc=/i.test(attributes) || DATA_BLOCK.test(attributes)) continue;
    hashes.add(hashSource(text));
  }
  return [...hashes];
}

/** `'sha256-…'` sources for every inline stylesheet (<style>) in `html`, in document order, without repeats. */
export function inlineStyleHashes(html: string): string[] {
  return [...new Set([...html.matchAll(INLINE_STYLE)].map(([, text = ""]) => hashSource(text)))];
}

function hashSource(text: string) {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The name the policy reports under (Reporting-Endpoints), when CSP_REPORT_URL is set. */
export const CSP_REPORT_GROUP = "csp";

export function contentSecurityPolicy({
  scriptHashes,
  styleHashes = [],
  supabaseUrl,
  liveReload = false,
  reportUrl,
}: {
  scriptHashes: readonly string[];
  styleHashes?: readonly string[];
  supabaseUrl: string;
  liveReload?: boolean;
  /** CSP_REPORT_URL: where browsers report what the policy blocked (report-to, and report-uri for engines without it). */
  reportUrl?: string;
}) {
  // Only directives every engine knows: WebKit logs a console error for each one it does not (it
  // rejected `manifest-src`, which `default-src 'self'` covers anyway).
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(" ")}`.trim(),
    // The inline stylesheets by hash: the critical CSS, and react-hot-toast's rules written in advance
    // (toast-styles.server.ts). No style attribute in the markup needs allowing; scripts set styles
    // through the CSSOM, which CSP does not govern.
    `style-src 'self' ${styleHashes.join(" ")}`.trim(),
    "img-src 'self' data:",
    "font-src 'self'",
    // `npm run dev`: the live-reload socket of `remix dev` (a production build has no such script).
    `connect-src 'self' ${new URL(supabaseUrl).origin}${liveReload ? " ws://localhost:* ws://127.0.0.1:*" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(reportUrl ? [`report-uri ${reportUrl}`, `report-to ${CSP_REPORT_GROUP}`] : []),
  ].join("; ");
}
