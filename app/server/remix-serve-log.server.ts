/**
 * remix-serve's access log, made to go through the request log (request-log.server.ts, docs/decisions/032).
 * remix-serve writes a line per request with morgan and offers no option to change it. What this relies
 * on, read from @remix-run/serve 2.17.5 (dist/cli.js) and morgan 1.10.1 (index.js), and checked by
 * app/server/remix-serve-log.server.test.ts:
 * - remix-serve imports the server build (and so this module) before it calls `morgan("tiny")`;
 * - morgan keeps a named format as a property of its own function (`morgan.tiny`, a format string it
 *   compiles with `morgan.compile`) and looks it up when `morgan(name)` is called;
 * - a format function that returns undefined makes morgan write nothing for that request.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";

type Format = (tokens: unknown, request: IncomingMessage, response: ServerResponse) => string | undefined | null;
type Morgan = { tiny?: Format | string; compile?: (format: string) => Format };

/** morgan as remix-serve resolves it, or undefined where remix-serve is not installed. */
export function remixServeMorgan(): Morgan | undefined {
  try {
    // The package has no main module: its package.json is what resolves.
    const serve = createRequire(import.meta.url).resolve("@remix-run/serve/package.json");
    return createRequire(serve)("morgan") as Morgan;
  } catch {
    return undefined;
  }
}

/**
 * remix-serve's "tiny" lines from now on: an answer below 400 is written as `access` decides (its line,
 * or nothing once the budget is spent); one of 400 or more not at all (the request log has its line).
 */
export function routeAccessLog(access: (line: string) => string | undefined, morgan = remixServeMorgan()): boolean {
  const named = morgan?.tiny;
  const tiny = typeof named === "string" ? morgan?.compile?.(named) : named;
  if (!morgan || typeof tiny !== "function") return false;
  morgan.tiny = (tokens, request, response) => {
    if (response.statusCode >= 400) return undefined;
    const line = tiny(tokens, request, response);
    return line == null ? line : access(line);
  };
  return true;
}
