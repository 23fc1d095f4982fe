// What the first view of `/` costs in bytes: the HTML, the render-blocking CSS and the JavaScript
// loaded before any interaction, each gzipped (level 9) as remix-serve's compression would send it.
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

export async function pageWeight(siteUrl) {
  const html = Buffer.from(await (await fetch(`${siteUrl}/`)).arrayBuffer());
  const text = html.toString();
  const css = [...text.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1]);
  const entry = [...text.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]);
  const inline = [...text.matchAll(/import\("([^"]+)"\)|import \* as \w+ from "([^"]+)"/g)].map((m) => m[1] ?? m[2]);
  const js = new Set();
  for (const file of [...entry, ...inline]) staticImports(new URL(file, "http://x").pathname, js);
  const jsFiles = [...js].map((f) => ({ file: f, raw: local(f).length, gzip: gz(local(f)) }));
  const cssBytes = css.map((f) => local(f));
  return {
    htmlGzip: gz(html),
    htmlBrotli: br(html),
    cssGzip: cssBytes.reduce((n, b) => n + gz(b), 0),
    cssBrotli: cssBytes.reduce((n, b) => n + br(b), 0),
    jsGzip: jsFiles.reduce((n, f) => n + f.gzip, 0),
    jsFiles,
    containsSupabase: jsFiles.some((f) => local(f.file).toString().includes("GoTrueClient")),
  };
}
