// What the home page costs in bytes, as the site sends it: see pageWeight below.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const ROOT = path.resolve(import.meta.dirname, "../..");
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const br = (buf) => brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const local = (url) => readFileSync(path.join(ROOT, "public", new URL(url, "http://x").pathname));
/** A built script as a browser that takes brotli gets it: its brotli copy (scripts/assets/precompress.mjs). */
const sent = (url) => {
  const copy = path.join(ROOT, "public", `${new URL(url, "http://x").pathname}.br`);
  return existsSync(copy) ? readFileSync(copy).length : br(local(url));
};

/** A built module and what it imports, statically and (with `dynamic`) by import(), transitively. */
function reach(file, seen, dynamic) {
  if (seen.has(file)) return;
  seen.add(file);
  const source = local(file).toString();
  const statics = [...source.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+from\s*)?["']([^"']+)["']/g)].map((m) => m[1]);
  const dynamics = dynamic ? [...source.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]) : [];
  // Only the site's own files: a bare name (supabase-js's `import("ws")`, for Node) never runs in a browser.
  for (const next of [...statics, ...dynamics].filter((name) => /^\.{0,2}\//.test(name)))
    reach(new URL(next, `http://x${file}`).pathname, seen, dynamic);
}
const files = (entries, dynamic) => {
  const seen = new Set();
  for (const entry of entries) reach(new URL(entry, "http://x").pathname, seen, dynamic);
  return [...seen].map((file) => ({ file, bytes: sent(file), hasSupabase: local(file).toString().includes("GoTrueClient") }));
};
const total = (list) => list.reduce((n, f) => n + f.bytes, 0);

/**
 * What the home page costs (decisions 005 and 030):
 * - firstRoundTrip: the HTML a first paint needs (the head with its inline CSS, the header and the hero, what a
 *   360 px phone shows first), gzipped as the page is sent: it must arrive in the first round trip (TCP's
 *   initial window, 14 KB); the rest of the page follows it, and may grow (FAQ entries, packages, gear);
 * - html: the whole page, gzipped;
 * - inlineScript: the page's inline script (the menu and the booking form's layer), raw bytes;
 * - jsOnArrival: the modules the page loads by itself (none: the page is HTML);
 * - jsOnIntent: the island's modules, loaded when the visitor starts on the form (no supabase-js);
 * - jsThroughSend: everything the island may load through a Send (supabase-js and the toasts included),
 *   each as its brotli copy, as a browser that takes brotli gets it.
 */
export async function pageWeight(siteUrl) {
  const response = await fetch(`${siteUrl}/`);
  // A page that failed, or one without its hero, would measure nothing and pass every budget.
  if (response.status !== 200) throw new Error(`GET ${siteUrl}/ answered ${response.status}: nothing to measure`);
  const html = Buffer.from(await response.arrayBuffer());
  const text = html.toString();
  const hero = text.indexOf('aria-labelledby="hero-title"');
  if (hero < 0) throw new Error('the page has no hero (aria-labelledby="hero-title"): where the first paint ends is unknown');
  const foldEnd = text.indexOf("</section>", hero) + "</section>".length;
  const inline = [...text.matchAll(/<script(?![^>]*\btype="application\/(?:ld\+)?json")(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => m[1],
  );
  const onArrival = files(
    [
      ...[...text.matchAll(/<link(?=[^>]* rel="modulepreload")[^>]*href="([^"]+)"/g)].map((m) => m[1]),
      ...[...text.matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1]),
    ],
    false,
  );
  // The island's entry and its imports, as the page's inline layer names them.
  const island = /"island":(\{"entry":"[^"]+","imports":\[[^\]]*\]\})/.exec(inline.join("\n"));
  const entries = island ? (({ entry, imports }) => [entry, ...imports])(JSON.parse(island[1])) : [];
  const onIntent = files(entries, false);
  const throughSend = files(entries, true);
  return {
    firstRoundTrip: gz(Buffer.from(text.slice(0, foldEnd))),
    html: gz(html),
    htmlBrotli: br(html),
    inlineScript: inline.reduce((n, code) => n + Buffer.byteLength(code), 0),
    jsOnArrival: total(onArrival),
    jsOnIntent: total(onIntent),
    intentFiles: onIntent.length,
    jsThroughSend: total(throughSend),
    sendFiles: throughSend.length,
    supabaseBeforeIntent: onArrival.some((f) => f.hasSupabase) || onIntent.some((f) => f.hasSupabase),
  };
}
