/**
 * A document without the scripts that would run in it: every <script> that is code (not a data block
 * such as JSON-LD) and every module preload goes, so nothing of the router's state (Remix's
 * `window.__remixContext`: loader data, errors, the framework's settings) reaches the visitor. For
 * error documents, which need no JavaScript: their link home is a plain link.
 */
const SCRIPT = /<script\b([^>]*)>[\s\S]*?<\/script>/gi;
const DATA_BLOCK = /\btype="application\/(ld\+)?json"/i;
const MODULE_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*\/?>/gi;

export function withoutScripts(html: string): string {
  return html.replace(SCRIPT, (script, attributes: string) => (DATA_BLOCK.test(attributes) ? script : "")).replace(MODULE_PRELOAD, "");
}
