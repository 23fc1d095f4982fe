/**
 * How a refused post leaves the connection: the visitor gets the page, then the connection closes.
 *
 * A refusal can be decided while the request's body is still arriving (another site's post, a type
 * that is not a form, a body too large or too slow: app/enquiry/action.server.ts). Closing a TCP
 * socket with unread bytes in it, or while the client still sends, makes the kernel answer with a
 * reset, and a client that gets a reset may throw away the page it had not yet read. So, as nginx's
 * "lingering close" does:
 * - the answer says `Connection: close` (Node then ends the connection after it);
 * - after the answer, the connection sends its end (FIN) at once but goes on reading, and throwing
 *   away, what the client still sends (LINGER_BYTES at most, then it just waits), for LINGER_MS or
 *   until the client ends its side; then it closes.
 * A refusal of a complete post (400, 429, ...) closes too: the visitor's next request opens a new
 * connection, a client that misbehaved keeps none. What Node's parser refuses itself (answerClientError)
 * ends the same way.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { headerLines } from "./response-headers.server";

/** How long a refused connection goes on reading what the client still sends. */
export const LINGER_MS = 2_000;
/** How much it reads at most meanwhile (the rest of a large body the site does not want); then it waits. */
export const LINGER_BYTES = 1024 * 1024;

/** Hooks `response` so a refusal of a post, or any answer given before the body has all arrived, ends as above. */
export function closeAfterRefusal(request: IncomingMessage, response: ServerResponse): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    const refusedPost = request.method === "POST" && statusCode >= 400;
    if (refusedPost || !request.complete) {
      // Node writes "Connection: close" and ends the connection once this answer is sent.
      response.shouldKeepAlive = false;
      if (!request.complete) lingerOnClose(request, request.socket);
    }
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, statusCode, ...rest);
  } as ServerResponse["writeHead"];
}

/** Replaces Node's close after the answer (`destroySoon`) with a lingering one, for this socket only. */
function lingerOnClose(request: IncomingMessage, socket: Socket): void {
  socket.destroySoon = function (this: Socket) {
    // Nobody reads the body any more (the page's reader let it go): the rest is thrown away here.
    request.removeAllListeners("data");
    request.resume();
    lingeringClose(socket);
    return this;
  } as Socket["destroySoon"];
}

/** Sends the end now, reads and drops what still comes (LINGER_BYTES at most), closes after LINGER_MS or the client's end. */
function lingeringClose(socket: Socket): void {
  let read = 0;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  socket.on("data", (chunk: Buffer) => {
    read += chunk.length;
    // Enough read for nothing: TCP's flow control holds the client until the time is up.
    if (read > LINGER_BYTES) socket.pause();
  });
  socket.once("end", close);
  socket.end();
}

const CLIENT_ERROR_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};
const answered = new WeakSet<Socket>();

/**
 * The server's `clientError`: a request Node's parser could not read (a bad chunk size, two lengths,
 * a malformed header line, headers too large or too slow). Node's own answer is a bare 400 and an
 * immediate close, which resets a client still sending, so it may never read even that. Here: a short
 * page with the status, `Connection: close`, and the same lingering close. A response already on its
 * way for an earlier request on the connection is let finish, then the connection closes.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: Socket,
  /** The headers every response carries (response-headers.server.ts). */
  headers: Readonly<Record<string, string>> = {},
): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  // The parser is done with this connection: what still comes is thrown away.
  socket.removeAllListeners("data");
  if (inFlight) {
    // Its body broke off mid-way (a bad chunk): its reader is told so (it answers 400, never taking half
    // a body for a whole one), then the answer goes out and the connection closes.
    inFlight.shouldKeepAlive = false;
    inFlight.once("finish", () => lingeringClose(socket));
    socket.on("data", () => undefined);
    const request = (inFlight as ServerResponse & { req?: IncomingMessage }).req;
    // Only to a reader that listens: an "error" nobody listens for would throw, here, in the server.
    if (request && !request.complete && request.listenerCount("error") > 0) request.emit("error", error);
    return;
  }
  answerOnSocket(socket, CLIENT_ERROR_STATUS[error.code ?? ""] ?? 400, {}, headers);
}

/**
 * An answer written straight to a socket Node's HTTP server has let go of (a request its parser could
 * not read, a CONNECT): a short page with the status, the headers every response carries, `no-store`,
 * `Connection: close`, then the lingering close.
 */
export function answerOnSocket(
  socket: Socket,
  status: number,
  own: Readonly<Record<string, string>>,
  /** The headers every response carries (response-headers.server.ts). */
  headers: Readonly<Record<string, string>>,
): void {
  const reason = STATUS_CODES[status] ?? "Error";
  const page = `<!doctype html><html lang="en"><meta charset="utf-8"><title>${status} ${reason}</title><h1>${status} ${reason}</h1><p>The request could not be read. Please go back and try again.</p></html>`;
  socket.write(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/html; charset=utf-8\r\n` +
      `Cache-Control: no-store\r\n${headerLines({ ...headers, ...own })}Content-Length: ${Buffer.byteLength(page)}\r\n\r\n${page}`,
  );
  lingeringClose(socket);
}
