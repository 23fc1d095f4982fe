/**
 * The HTTP server remix-serve creates, given the site's time limits and its front door. remix-serve
 * offers no hook to its server, but it imports the server build before it calls `http.createServer`
 * (through Express's `app.listen`), so entry.server hands that call our options and wraps the request
 * listener it receives:
 * - time limits (SERVER_*_TIMEOUT_MS, config.server.ts): Node's defaults let a slow or lying client hold
 *   a socket for minutes (requestTimeout 300 s, checked only every 30 s);
 * - the front door (front-door.server.ts): a head the site can read (Host, target), canonical paths, the
 *   trusted visitor address, the verdict on posts from other sites, before Express and Remix see the request;
 * - the headers every response carries (response-headers.server.ts), static files and refusals included;
 * - the built scripts in their brotli copies, for browsers that take brotli (precompressed.server.ts);
 * - Remix's route manifest refused: no page has a client router (route-manifest.server.ts);
 * - a refused post gets its page, then the connection closes without a reset (refusal-close.server.ts);
 * - Node's own answers (a request it cannot read, an `Expect` it does not know, a missing Host, a
 *   CONNECT) are the site's, with the same headers (docs/decisions/037);
 * - what a request makes the site write is bounded (request-log.server.ts): a refusal is one line, a
 *   repeated one a count, and an error Express would print with its stack is answered and counted here;
 * - a second `close()` (remix-serve calls it on SIGINT and on SIGTERM, and a Ctrl-C under the local stack
 *   sends both) is no error (docs/decisions/032).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import path from "node:path";
import type { SiteConfig } from "~/config.server";
import { MAX_FORM_BYTES } from "~/enquiry/action.server";
import { frontDoor } from "./front-door.server";
import { answerPrecompressed, precompressedFiles } from "./precompressed.server";
import { publicTree } from "./public-tree.server";
import { answerClientError, answerOnSocket, closeAfterRefusal } from "./refusal-close.server";
import { remixServeMorgan, routeAccessLog } from "./remix-serve-log.server";
import { boundConsole, createRequestLog } from "./request-log.server";
import { addMissingHeaders, securityHeaders } from "./response-headers.server";
import { asksForRouteManifest } from "./route-manifest.server";

/**
 * The folders of public/ as canonical paths ("/", "/build", "/photos", …), listed once at start: the
 * static files' handler redirects a folder's path to add a slash, which the front door must know.
 */
export function publicFolders(root = path.resolve("public")): Set<string> {
  // Lowercase: Express matches a mount path (/build) in any case.
  return new Set(["/", ...publicTree(root).flatMap((entry) => (entry.folder ? [entry.url.toLowerCase()] : []))]);
}

const originalCreateServer = http.createServer;
let installed: SiteConfig | undefined;
let folders: ReadonlySet<string> = new Set();
let precompressed: ReturnType<typeof precompressedFiles> = new Map();
let headers: Readonly<Record<string, string>> = {};
const requestLog = createRequestLog();
/** The request being answered, for the errors the framework reports while answering it. */
const answering = new AsyncLocalStorage<http.IncomingMessage>();
/** What went wrong while answering a request (reported by Remix's handleError or Express). */
const causes = new WeakMap<http.IncomingMessage, unknown>();

/**
 * entry.server's `handleError`: Remix reports an error while answering a request (a loader that threw, a
 * data request for a route that does not take it). Its line is written once the answer's status is known.
 */
export function noteRequestError(error: unknown) {
  const request = answering.getStore();
  if (request) causes.set(request, error);
  else requestLog.failed({ method: "-", target: "-", status: 500, ms: 0, cause: error });
}

/**
 * Called once by entry.server at start-up (a call, not a bare import: the build drops side-effect
 * imports).
 */
export function installHttpServer(config: SiteConfig) {
  installed = config;
  headers = securityHeaders({ production: config.production });
  keepServingOnStrayRejections();
  folders = publicFolders();
  precompressed = precompressedFiles();
  routeAccessLog((line) => requestLog.access(line), remixServeMorgan());
  boundConsole(requestLog, () => answering.getStore() !== undefined);
  if (http.createServer !== createServer) http.createServer = createServer;
}

const createServer = ((...args: unknown[]) => {
  const [first, second] = args;
  const options = typeof first === "object" && first !== null ? (first as http.ServerOptions) : {};
  const listener = (typeof first === "function" ? first : second) as http.RequestListener | undefined;
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = installed!.server;
  const server = (originalCreateServer as (options: http.ServerOptions, listener?: http.RequestListener) => http.Server)(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // How often Node checks the two limits above (its default, 30 s, would make them meaningless).
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
      // Node's own 400 for an HTTP/1.1 request without Host has none of the headers: the front door refuses it.
      requireHostHeader: false,
      ...options,
    },
    listener && withFrontDoor(listener),
  );
  server.on("clientError", (error: Error, socket: import("node:net").Socket) => answerClientError(error, socket, headers));
  // An `Expect` other than 100-continue: Node's own 417 would go without the headers.
  server.on("checkExpectation", (_request: http.IncomingMessage, response: http.ServerResponse) => {
    addMissingHeaders(response, headers);
    response.writeHead(417, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": "18", Connection: "close" });
    response.end("Expectation Failed");
  });
  // CONNECT (a tunnel, which the site is not): Node would close the connection without a word.
  server.on("connect", (request: http.IncomingMessage, socket: import("node:net").Socket) => {
    answerOnSocket(socket, 405, { Allow: "GET, HEAD, POST" }, headers);
    requestLog.failed({ method: "CONNECT", target: request.url ?? "-", status: 405, ms: 0, cause: undefined });
  });
  const close = server.close.bind(server);
  server.close = ((callback?: (error?: Error) => void) => {
    if (!server.listening) {
      if (callback) process.nextTick(callback);
      return server;
    }
    return close(callback);
  }) as typeof server.close;
  // "Expect: 100-continue": ask for the body only when the site could read it (the form is its largest);
  // a larger one is refused (413) without asking the client to send it first.
  server.on("checkContinue", (request: http.IncomingMessage, response: http.ServerResponse) => {
    if (Number(request.headers["content-length"] ?? 0) <= MAX_FORM_BYTES) response.writeContinue();
    server.emit("request", request, response);
  });
  return server;
}) as typeof http.createServer;

function withFrontDoor(listener: http.RequestListener): http.RequestListener {
  return (request, response) => {
    const config = installed!;
    const started = performance.now();
    addMissingHeaders(response, headers);
    // "close", not "finish": a client that leaves as the answer goes out must not escape the count.
    response.once("close", () => {
      if (!response.headersSent || response.statusCode < 400) return;
      const ms = performance.now() - started;
      requestLog.failed({
        method: request.method ?? "-",
        target: request.url ?? "-",
        status: response.statusCode,
        ms,
        cause: causes.get(request),
      });
    });
    const verdict = frontDoor(request, { siteOrigins: config.siteOrigins, trustProxy: config.trustProxy, publicFolders: folders });
    closeAfterRefusal(request, response);
    if (verdict.kind === "pass") {
      if (answerPrecompressed(request, response, precompressed)) return;
      if (asksForRouteManifest(request)) {
        // No page has a client router to ask for it: nothing to keep, nothing to tell.
        response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
        response.end("Not Found");
        return;
      }
      // Express takes a third argument in place of its final handler, which printed every error it got
      // (a range a static file cannot satisfy, a path it cannot decode) with its stack.
      const express = listener as (request: http.IncomingMessage, response: http.ServerResponse, done: (error?: unknown) => void) => void;
      return answering.run(request, () => express(request, response, (error) => answerUnhandled(request, response, error)));
    }
    if (verdict.kind === "unreadable") {
      // A head no URL can be made of: the client's mistake, refused like one (a warning, no stack).
      response.shouldKeepAlive = false;
      response.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Content-Length": "11" });
      response.end(request.method === "HEAD" ? undefined : "Bad Request");
      return;
    }
    if (verdict.kind === "redirect") {
      // Every spelling of a path leads to the one document; caches may keep the redirect.
      response.writeHead(308, { Location: verdict.location, "Cache-Control": "public, max-age=86400", "Content-Length": "0" });
    } else {
      response.writeHead(405, { Allow: "GET, HEAD, POST", "Cache-Control": "no-store", "Content-Length": "0" });
    }
    response.end();
  };
}

/** What Express could not answer: the error's own status (4xx, 5xx) and headers, or a 404 when nothing matched. */
function answerUnhandled(request: http.IncomingMessage, response: http.ServerResponse, error: unknown) {
  if (error !== undefined) causes.set(request, error);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const given = error as { status?: unknown; statusCode?: unknown; headers?: Record<string, string> } | undefined;
  const code = Number(given?.status ?? given?.statusCode);
  const status = error === undefined ? 404 : code >= 400 && code < 600 ? code : 500;
  const body = `${status} ${http.STATUS_CODES[status] ?? ""}`.trim();
  // What a handler set for the file it meant to send (a static file's year or hour of caching, its ETag)
  // is not the error's: an error is kept nowhere.
  for (const name of response.getHeaderNames()) response.removeHeader(name);
  for (const [name, value] of Object.entries(given?.headers ?? {})) response.setHeader(name, value);
  response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": String(Buffer.byteLength(body)) });
  response.end(request.method === "HEAD" ? undefined : body);
}

/**
 * A promise rejected where nobody listens ends Node 20's process, and so every visitor's page. Remix's
 * fetch (@remix-run/web-fetch, installed by remix-serve) leaves one when a request with a body is
 * aborted: it cancels a body a reader holds. The no-JS path aborts its call to the function after 15 s,
 * so a function that stops answering took the site down. Such a rejection is logged, and the site serves on.
 */
function keepServingOnStrayRejections() {
  if (process.listenerCount("unhandledRejection") > 0) return;
  process.on("unhandledRejection", (reason) => console.error("Unhandled rejection (the site serves on):", reason));
}
