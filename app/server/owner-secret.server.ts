/**
 * Whether a request holds the owner's secret (`Authorization: Bearer <secret>`), compared in constant
 * time. No secret configured: nobody holds it.
 */
import { createHash, timingSafeEqual } from "node:crypto";

export function holdsSecret(request: Request, secret: string | undefined): boolean {
  if (!secret) return false;
  const sent = /^Bearer (.+)$/.exec(request.headers.get("Authorization") ?? "")?.[1] ?? "";
  // Digests of equal length: the comparison takes the same time whatever was sent.
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(sent), digest(secret));
}
