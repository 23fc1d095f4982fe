// Resend cannot run on this machine (no internet): this stands in for its HTTP API where the tests need
// one, answering as Resend documents it (POST /emails with a Bearer key; `{ id }` on success; JSON
// errors `{ statusCode, name, message }`; an idempotency key reused with another body is 409
// invalid_idempotent_request), and signs webhooks as Resend does (Svix: HMAC-SHA256 over
// "id.timestamp.body", keyed with the base64 part of "whsec_…"). docs/decisions/014 names the sources.

export type SentEmail = { id: string; key: string | null; body: Record<string, unknown> };
/** Every request to POST /emails with the right key, refused ones included: what each attempt carried. */
export type Attempt = { key: string | null; body: Record<string, unknown> };

export function startResendStandIn(apiKey: string) {
  const sent: SentEmail[] = [];
  const attempts: Attempt[] = [];
  const byKey = new Map<string, { text: string; id: string }>();
  const failures: { status: number; name: string }[] = [];
  const refused = new Set<string>();
  const refusedReplyTo = new Set<string>();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const answer = (status: number, body: unknown) => Response.json(body, { status });
    if (new URL(request.url).pathname !== "/emails" || request.method !== "POST")
      return answer(404, { statusCode: 404, name: "not_found", message: "Not found" });
    if (request.headers.get("authorization") !== `Bearer ${apiKey}`)
      return answer(403, { statusCode: 403, name: "invalid_api_key", message: "API key is invalid" });
    const text = await request.text();
    attempts.push({ key: request.headers.get("idempotency-key"), body: JSON.parse(text) });
    const forced = failures.shift();
    if (forced) return answer(forced.status, { statusCode: forced.status, name: forced.name, message: `stand-in: ${forced.name}` });
    const to = [JSON.parse(text).to].flat() as string[];
    if (to.some((address) => refused.has(address)))
      return answer(422, {
        statusCode: 422,
        name: "validation_error",
        message: "Invalid `to` field. The email address needs to follow the `email@example.com` format.",
      });
    const replyTo = [JSON.parse(text).reply_to ?? []].flat() as string[];
    if (replyTo.some((address) => refusedReplyTo.has(address)))
      return answer(422, {
        statusCode: 422,
        name: "validation_error",
        message:
          "Invalid `reply_to` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.",
      });
    const key = request.headers.get("idempotency-key");
    const earlier = key ? byKey.get(key) : undefined;
    if (earlier && earlier.text !== text) {
      return answer(409, {
        statusCode: 409,
        name: "invalid_idempotent_request",
        message: "Same idempotency key used with a different request payload.",
      });
    }
    if (earlier) return answer(200, { id: earlier.id });
    const id = crypto.randomUUID();
    if (key) byKey.set(key, { text, id });
    sent.push({ id, key, body: JSON.parse(text) });
    return answer(200, { id });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    sent,
    attempts,
    /** Mail to `address` is refused as Resend refuses an address it will not send to (422 validation_error). */
    refuse(address: string) {
      refused.add(address);
    },
    /**
     * A mail whose reply_to is `address` is refused as Resend refuses a field it will not take (422
     * validation_error naming the field), though the form accepts the address (`a{b}@example.com`).
     */
    refuseReplyTo(address: string) {
      refusedReplyTo.add(address);
    },
    /** The next answers are these errors, in order. */
    failNext(...errors: { status: number; name: string }[]) {
      failures.push(...errors);
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** A webhook request as Resend sends it, signed with `secret` ("whsec_…") at `timestamp` (seconds). */
export async function signedWebhook(url: string, secret: string, event: unknown, timestamp = Math.floor(Date.now() / 1000)) {
  const body = JSON.stringify(event);
  const id = `msg_${crypto.randomUUID()}`;
  const keyBytes = Uint8Array.from(atob(secret.replace(/^whsec_/, "")), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)));
  return new Request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "svix-id": id,
      "svix-timestamp": String(timestamp),
      "svix-signature": `v1,${btoa(String.fromCharCode(...signature))}`,
    },
    body,
  });
}
