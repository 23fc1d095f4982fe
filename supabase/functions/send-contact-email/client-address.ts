/**
 * Who is calling, as far as the function can trust it: the address the site's relay vouches for
 * (with the shared secret), else the one header the platform itself sets (CLIENT_IP_HEADER), never a
 * header a caller can write. For a list header (X-Forwarded-For) the platform appends the caller's
 * address, so it is read from the right: CLIENT_IP_TRUSTED_HOPS entries from the end. Null when none
 * is there: then no per-sender limit applies, rather than one bucket shared by every such caller.
 */
import type { Config } from "./config.ts";
import { shortHash } from "./crypto.ts";

/** Headers that say who the caller is on some platform or proxy; reported by /health and `npm run verify`. */
export const ADDRESS_HEADERS = [
  "cf-connecting-ip",
  "true-client-ip",
  "x-real-ip",
  "x-forwarded-for",
  "forwarded",
  "x-envoy-external-address",
  "x-client-ip",
] as const;

export function platformAddress(request: Request, { header, trustedHops }: Config["clientAddress"]): string | null {
  const raw = request.headers.get(header);
  if (!raw) return null;
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const entry = entries.length === 1 && trustedHops === 1 ? entries[0] : entries[entries.length - trustedHops];
  return entry || null;
}

/** For each address header that arrived: a short hash of each of its entries (values are never shown). */
export async function addressHeaderReport(request: Request): Promise<Record<string, string[]>> {
  const report: Record<string, string[]> = {};
  for (const name of ADDRESS_HEADERS) {
    const value = request.headers.get(name);
    if (value === null) continue;
    report[name] = await Promise.all(value.split(",").map((entry) => shortHash(entry.trim())));
  }
  return report;
}
