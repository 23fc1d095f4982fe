/**
 * The built scripts and stylesheets (/build/, content-hashed, immutable) in the brotli copies the build
 * made of them (scripts/assets/precompress.mjs), for browsers that accept brotli: compressed once at the
 * best quality instead of at remix-serve's quality 4 on every request (decision 030). Anything else, a
 * browser without brotli included, goes to remix-serve's static files as before.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { publicTree } from "./public-tree.server";

type Copy = { bytes: Buffer; etag: string; type: string };

const TYPES: Record<string, string> = { ".js": "application/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };

/** The brotli copies under `root`/build, by URL path, read once at start. */
export function precompressedFiles(root = path.resolve("public")): ReadonlyMap<string, Copy> {
  const files = new Map<string, Copy>();
  for (const { file, url, folder } of publicTree(path.join(root, "build"), "/build")) {
    const type = TYPES[path.extname(url.replace(/\.br$/, ""))];
    if (folder || !url.endsWith(".br") || !type) continue;
    const bytes = readFileSync(file);
    const etag = `"br-${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
    files.set(url.slice(0, -3), { bytes, etag, type });
  }
  return files;
}

/** Whether `accept` (Accept-Encoding) takes brotli: named with a weight above 0. */
export function acceptsBrotli(accept: string | undefined): boolean {
  return (accept ?? "").split(",").some((part) => {
    const [coding, ...params] = part.trim().split(";");
    if (coding?.trim().toLowerCase() !== "br") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * Answers `request` with its brotli copy, if it is a GET or HEAD of one and the browser takes brotli.
 * Returns whether it answered.
 */
export function answerPrecompressed(request: IncomingMessage, response: ServerResponse, files: ReadonlyMap<string, Copy>): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const pathname = (request.url ?? "").split("?")[0]!;
  const copy = files.get(pathname);
  if (!copy || !acceptsBrotli(request.headers["accept-encoding"])) return false;
  const headers = {
    "Content-Type": copy.type,
    "Cache-Control": "public, max-age=31536000, immutable",
    Vary: "Accept-Encoding",
    ETag: copy.etag,
  };
  if (request.headers["if-none-match"]?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === copy.etag)) {
    response.writeHead(304, headers);
    response.end();
    return true;
  }
  response.writeHead(200, { ...headers, "Content-Encoding": "br", "Content-Length": String(copy.bytes.length) });
  response.end(request.method === "HEAD" ? undefined : copy.bytes);
  return true;
}
