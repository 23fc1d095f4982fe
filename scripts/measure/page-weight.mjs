// What the first view of `/` costs in bytes, gzipped (level 9) as remix-serve's compression would
// send it: see pageWeight below.
import { readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

const ROOT = path.resolve(import.meta.dirname, "../..");
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const br = (buf) => brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const local = (url) => readFileSync(path.join(ROOT, "public", new URL(url, "http://x").pathname));

/** Static imports of a built ES module, followed transitively (dynamic imports are not followed). */
function staticImports(file, seen) {
  if (seen.has(file)) return;
  seen.add(file);
  const source = local(file).toString();
  for (const match of source.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+from\s*)?["']([^"']+)["']/g)) {
    staticImports(new URL(match[1], `http://x${file}`).pathname, seen);
  }
}

/** JavaScript files reached from preload links and module scripts, with their sizes. */
function jsFrom(preloads, moduleScripts) {
  const inline = moduleScripts.flatMap((code) =>
    [...code.matchAll(/import\("([^"]+)"\)|import \* as \w+ from "([^"]+)"/g)].map((m) => m[1] ?? m[2]),
  );
  const files = new Set();
  for (const file of [...preloads, ...inline]) staticImports(new URL(file, "http://x").pathname, files);
  return [...files].map((f) => ({ file: f, raw: local(f).length, gzip: gz(local(f)) }));
}

/**
 * What the first view of `/` costs: the HTML and render-blocking CSS, the JavaScript fetched on
 * arrival, and the JavaScript fetched on the visitor's first intent (the home page defers its
 * hydration until then: docs/decisions/008), each gzipped as remix-serve's compression would send it.
 */
export async function pageWeight(siteUrl) {
  const html = Buffer.from(await (await fetch(`${siteUrl}/`)).arrayBuffer());
  const text = html.toString();
  const css = [...text.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1]);
  const preloads = (attribute) =>
    [...text.matchAll(new RegExp(`<link(?=[^>]* ${attribute}="modulepreload")[^>]*href="([^"]+)"`, "g"))].map((m) => m[1]);
  const modules = (type) => [...text.matchAll(new RegExp(`<script[^>]* type="${type}"[^>]*>([\\s\\S]*?)</script>`, "g"))].map((m) => m[1]);
  const onArrival = jsFrom(preloads("rel"), modules("module"));
  const onIntent = jsFrom(preloads("data-deferred-rel"), modules("text/x-deferred-module"));
  const hasSupabase = (files) => files.some((f) => local(f.file).toString().includes("GoTrueClient"));
  const cssBytes = css.map((f) => local(f));
  return {
    htmlGzip: gz(html),
    htmlBrotli: br(html),
    cssGzip: cssBytes.reduce((n, b) => n + gz(b), 0),
    cssBrotli: cssBytes.reduce((n, b) => n + br(b), 0),
    jsGzip: onArrival.reduce((n, f) => n + f.gzip, 0),
    jsFiles: onArrival,
    intentJsGzip: onIntent.reduce((n, f) => n + f.gzip, 0),
    intentJsFiles: onIntent,
    containsSupabase: hasSupabase(onArrival) || hasSupabase(onIntent),
  };
}
