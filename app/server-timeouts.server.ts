/**
 * Time limits for the site's HTTP server. remix-serve gives no hook to the server it creates, and
 * Node's defaults let a slow or lying client hold a socket for minutes (requestTimeout 300 s, checked
 * only every 30 s). The server build is imported before remix-serve creates its server (express calls
 * `http.createServer`), so this module hands that call the limits below. Documented in the README.
 */
import http from "node:http";

const ms = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

export const SERVER_TIMEOUTS = {
  /** The request line and headers must arrive within this (then 408 and the socket closes). */
  headersTimeout: ms("SERVER_HEADERS_TIMEOUT_MS", 10_000),
  /** The whole request, body included (the form's body also has its own 10 s limit in the action). */
  requestTimeout: ms("SERVER_REQUEST_TIMEOUT_MS", 30_000),
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeout: ms("SERVER_KEEP_ALIVE_TIMEOUT_MS", 5_000),
};

const createServer = http.createServer;
// How often Node checks the two limits above (its default, 30 s, would make them meaningless).
const connectionsCheckingInterval = Math.min(1_000, SERVER_TIMEOUTS.headersTimeout);

/** Called once by entry.server at start-up (a call, not a bare import: the build drops side-effect imports). */
export function limitServerTimeouts() {
  if (http.createServer === limitedCreateServer) return;
  http.createServer = limitedCreateServer;
}

const limitedCreateServer = ((...args: unknown[]) => {
  const [first, second] = args;
  const options = typeof first === "object" && first !== null ? (first as http.ServerOptions) : {};
  const listener = typeof first === "function" ? first : second;
  return (createServer as (options: http.ServerOptions, listener?: unknown) => http.Server)(
    { ...SERVER_TIMEOUTS, connectionsCheckingInterval, ...options },
    listener,
  );
}) as typeof http.createServer;
