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
 * connection, a client that misbehaved keeps none.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

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
  socket.destroySoon = function lingeringClose(this: Socket) {
    // Nobody reads the body any more (the page's reader let it go): the rest is thrown away here.
    request.removeAllListeners("data");
    request.resume();
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
    return this;
  } as Socket["destroySoon"];
}
