/** Small HTTP helpers shared by the routes of the function. */

export function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * The body as text, or why not: larger than `limit` bytes (read no further than that), or not all
 * there within `timeoutMs` (a client that declares more than it sends, or trickles it).
 */
export async function readCapped(request: Request, limit: number, timeoutMs: number): Promise<string | "too-large" | "too-slow"> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return "too-large";
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"too-slow">((resolve) => (timer = setTimeout(() => resolve("too-slow"), timeoutMs)));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === "too-slow") {
        reader.cancel().catch(() => undefined);
        return "too-slow";
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limit) {
        reader.cancel().catch(() => undefined);
        return "too-large";
      }
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Compares secrets in time that does not depend on where they differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i % x.length] ?? 0) ^ (y[i % y.length] ?? 0);
  return diff === 0 && x.length > 0;
}

export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
