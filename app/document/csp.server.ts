/**
 * Content-Security-Policy by hash: every inline script of a rendered document is allowed by the
 * SHA-256 of its text, so the document carries nothing per request (no nonce) and can be cached.
 * The inert scripts of deferred hydration are hashed too: the loader runs their text as new inline
 * scripts, which the browser checks against the same hashes.
 */
import { createHash } from "node:crypto";

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
// Data blocks the browser never runs (structured data) need no hash.
const DATA_BLOCK = /\btype="application\/(ld\+)?json"/i;

/** `'sha256-…'` sources for every inline script in `html`, in document order, without repeats. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = "", text = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc=/i.test(attributes) || DATA_BLOCK.test(attributes)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

export function contentSecurityPolicy({
  scriptHashes,
  supabaseUrl,
  liveReload = false,
}: {
  scriptHashes: readonly string[];
  supabaseUrl: string;
  liveReload?: boolean;
}) {
  // Only directives every engine knows: WebKit logs a console error for each one it does not (it
  // rejected `manifest-src`, which `default-src 'self'` covers anyway).
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(" ")}`.trim(),
    // react-hot-toast injects its keyframes with a <style> tag at run time (goober); scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    // `npm run dev`: the live-reload socket of `remix dev` (a production build has no such script).
    `connect-src 'self' ${new URL(supabaseUrl).origin}${liveReload ? " ws://localhost:* ws://127.0.0.1:*" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
