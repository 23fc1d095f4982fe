/**
 * Who is calling, as far as the function can trust it: the address the site's relay vouches for
 * (with the shared secret), else the one header the platform itself sets (CLIENT_IP_HEADER), never a
 * header a caller can write. For a list header (X-Forwarded-For) the platform appends the caller's
 * address, so it is read from the right: CLIENT_IP_TRUSTED_HOPS entries from the end. Null when none
 * is there: then no per-sender limit applies, rather than one bucket shared by every such caller.
 */
import ipaddr from "ipaddr.js";
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

/** What every value that is not an address in its usual form counts as: one sender, together. */
const UNREADABLE = "unreadable";

/**
 * Who counts as one sender for the per-sender limits: an IPv4 address, or an IPv6 address's /64. One
 * subscriber's network gets a /64 or more (RFC 6177), so a single host can take any of 2^64
 * addresses: counted one by one, a limit per address would bound nothing. IPv6 addresses that carry
 * an IPv4 one count as it (mapped ::ffff:0:0/96 and ::ffff:0:0:0/96, NAT64 64:ff9b::/96, 6to4
 * 2002::/16 with its 2^80 addresses per IPv4, Teredo 2001::/32). Anything else (an IPv4 written with
 * leading zeros or as one number, a port, text) counts as one sender, all together: the platform
 * writes addresses in their usual form, so only a caller that forges the header writes others.
 * Parsing and the ranges are ipaddr.js's (the library Express's proxy-addr uses).
 */
export function senderOf(address: string): string {
  const bare = address
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/%[^%]*$/, "");
  if (!bare.includes(":")) return ipaddr.IPv4.isValidFourPartDecimal(bare) ? bare : UNREADABLE;
  if (!ipaddr.IPv6.isValid(bare)) return UNREADABLE;
  const ip = ipaddr.IPv6.parse(bare);
  const [, g1, g2, , , , g6, g7] = ip.parts as [number, number, number, number, number, number, number, number];
  const v4 = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join(".");
  switch (ip.range()) {
    case "ipv4Mapped": // ::ffff:0:0/96
    case "rfc6145": // ::ffff:0:0:0/96
    case "rfc6052": // NAT64, 64:ff9b::/96
      return v4(g6, g7);
    case "6to4": // 2002:AABB:CCDD::/48
      return v4(g1, g2);
    case "teredo": // 2001:0::/32, the client's IPv4 inverted in the last 32 bits
      return v4(g6 ^ 0xffff, g7 ^ 0xffff);
    default:
      return `${ip.parts
        .slice(0, 4)
        .map((g) => g.toString(16))
        .join(":")}::/64`;
  }
}
