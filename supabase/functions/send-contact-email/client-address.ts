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
 */
export function senderOf(address: string): string {
  const bare = address
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/%[^%]*$/, "");
  if (!bare.includes(":")) return ipv4(bare) ?? UNREADABLE;
  const groups = ipv6Groups(bare);
  if (!groups) return UNREADABLE;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const v4 = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join(".");
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && ((g4 === 0 && g5 === 0xffff) || (g4 === 0xffff && g5 === 0))) return v4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7);
  if (g0 === 0x2002) return v4(g1, g2);
  if (g0 === 0x2001 && g1 === 0) return v4(g6 ^ 0xffff, g7 ^ 0xffff);
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** An IPv4 address in its usual dotted form (no leading zeros), or null. */
function ipv4(text: string): string | null {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)?.slice(1);
  return parts && parts.every((p) => Number(p) <= 255 && (p === "0" || !p.startsWith("0"))) ? text : null;
}

/** The eight 16-bit groups of an IPv6 address ("::" and a trailing dotted IPv4 allowed); null if it is not one. */
function ipv6Groups(text: string): number[] | null {
  let s = text.toLowerCase();
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return null;
    s = `${s.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  return groups.every((g) => /^[0-9a-f]{1,4}$/.test(g)) ? groups.map((g) => parseInt(g, 16)) : null;
}
