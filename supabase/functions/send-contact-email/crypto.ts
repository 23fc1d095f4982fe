/** The function's cryptography: secret comparison and hashes (Web Crypto only; webhook signatures: resend-webhook.ts). */

const encoder = new TextEncoder();

/** Compares secrets in time that does not depend on where they differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i % x.length] ?? 0) ^ (y[i % y.length] ?? 0);
  return diff === 0 && x.length > 0;
}

/** SHA-256 of the text, as hex. */
export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The first 12 hex characters of the SHA-256: enough to tell values apart in a report, not to read them. */
export async function shortHash(text: string): Promise<string> {
  return (await sha256(text)).slice(0, 12);
}
