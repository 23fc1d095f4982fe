/**
 * Whether a Content-Type is `mediaType` in UTF-8: the type itself, and every charset parameter it
 * names (none means UTF-8; "charset=utf-8; charset=latin1" is refused, not read by its first one).
 */
export function isUtf8Type(contentType: string, mediaType: string): boolean {
  const [type = "", ...parameters] = contentType.split(";");
  if (type.trim().toLowerCase() !== mediaType) return false;
  return parameters.every((parameter) => {
    const at = parameter.indexOf("=");
    const name = (at === -1 ? parameter : parameter.slice(0, at)).trim().toLowerCase();
    // charset*= (RFC 2231) names a charset too.
    return !name.startsWith("charset") || /^(utf-?8|"utf-?8")$/i.test(parameter.slice(at + 1).trim());
  });
}

/**
 * Reads a request body within limits, for both paths: the function (Deno) and the site's no-JS action
 * (Node). Dependency-free, Web streams only. Returns the bytes, or why not: larger than `limit` bytes
 * (it reads no further than that, and refuses at once when Content-Length says so), or not all there
 * within `timeoutMs` (a client that declares more than it sends, or trickles it), or broken off.
 *
 * When it gives up it lets go of the body without cancelling it: what happens to the rest is the
 * server's to decide, after the refusal has been answered. (Cancelling made Remix's Node adapter destroy
 * the connection at once, so the visitor never saw the 408 or 413 page: app/server/refusal-close.server.ts.)
 */
export async function readBody(
  request: Request,
  limit: number,
  timeoutMs: number,
): Promise<Uint8Array | "too-large" | "too-slow" | "unreadable"> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return "too-large";
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"too-slow">((resolve) => (timer = setTimeout(() => resolve("too-slow"), timeoutMs)));
  try {
    for (;;) {
      // A body that breaks off (the client gone, or framing the server could not parse) is never taken
      // for a shorter one: half a message is not a message.
      const next = await Promise.race([reader.read(), deadline]).catch(() => "unreadable" as const);
      if (next === "unreadable") return next;
      if (next === "too-slow") return "too-slow";
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limit) return "too-large";
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
