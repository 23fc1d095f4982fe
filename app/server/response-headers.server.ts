/**
 * The headers every response of the site carries (their list: security-headers.mjs, docs/decisions/024): documents, static
 * files (/build, /photos, the icons: remix-serve's static handler has no hook of its own), text routes,
 * JSON, redirects, refusals and Node's own 400s. The HTTP server (http-server.server.ts) adds them to
 * each response as its head is written, where the response does not set one itself: a document's own
 * Content-Security-Policy and Cache-Control stay its own (app/document/headers.server.ts).
 */
import type { ServerResponse } from "node:http";
import { ERROR_CACHE_CONTROL, securityHeaders } from "./security-headers.mjs";

export { securityHeaders };

/**
 * Hooks `response` so that, when its head is written (by writeHead, or implicitly by the first write),
 * every header of `headers` it does not set itself is added, and an error without Cache-Control gets
 * "no-store". Headers given to writeHead count as set (Node lets them replace what is set here).
 */
export function addMissingHeaders(response: ServerResponse, headers: Readonly<Record<string, string>>): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    const given = headersGiven(rest);
    const missing = (name: string) => !this.hasHeader(name) && !given.has(name.toLowerCase());
    for (const [name, value] of Object.entries(headers)) if (missing(name)) this.setHeader(name, value);
    if (statusCode >= 400 && missing("Cache-Control")) this.setHeader("Cache-Control", ERROR_CACHE_CONTROL);
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, statusCode, ...rest);
  } as ServerResponse["writeHead"];
}

/** The names of the headers passed to writeHead(status, [reason], headers), lowercased. */
function headersGiven(rest: unknown[]): Set<string> {
  const headers = typeof rest[0] === "string" ? rest[1] : rest[0];
  if (!headers || typeof headers !== "object") return new Set();
  if (!Array.isArray(headers)) return new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  // [[name, value], ...] or a flat [name, value, name, value, ...].
  const names = Array.isArray(headers[0]) ? headers.map((pair) => pair[0]) : headers.filter((_, i) => i % 2 === 0);
  return new Set(names.map((name) => String(name).toLowerCase()));
}

/** The same headers as lines of a raw HTTP head ("Name: value\r\n"), for answers written to the socket. */
export function headerLines(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
}
