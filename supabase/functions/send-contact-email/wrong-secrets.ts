/**
 * Secrets callers present (the site's relay secret, the owner's REDELIVERY_SECRET), and what a wrong
 * one costs the caller: an ordinary refusal, logged at info by the request's own line (anyone can
 * send a wrong secret, so it rings no alarm), counted for the owner's /health, and throttled per
 * sender in bounded memory (docs/decisions/023).
 *
 * A right secret always passes, even from a sender past its budget: a shared egress address (the
 * database's pg_net calls, the one "unknown" bucket where no address header arrives) must never let a
 * stranger lock the scheduler or the site out. The throttle bounds the work and the answers wrong
 * secrets get; guessing is bounded by the secrets themselves (32+ random characters in production).
 */
import { RELAY_HEADERS } from "../_shared/contact-message.ts";
import { platformAddress, senderOf } from "./client-address.ts";
import type { Config } from "./config.ts";
import { timingSafeEqual } from "./crypto.ts";

export const REDELIVERY_SECRET_HEADER = "x-redelivery-secret";

/** Whose secret a request presents. */
export type SecretKind = "relay" | "owner";
export type Verdict = "absent" | "recognised" | "refused";

/** Wrong secrets one sender may present in a window before it is answered 429; how many senders are tracked. */
export const WRONG_SECRET_LIMITS = { perSender: 10, windowSeconds: 600, trackedSenders: 1_000 } as const;

/** Where senders beyond `trackedSenders` count, together: memory stays bounded whatever addresses arrive. */
const OVERFLOW = "(untracked senders)";
/** Callers without the platform's address header: one bucket (locally, or a misconfigured CLIENT_IP_HEADER). */
const UNKNOWN = "(no address)";

const HEADERS: Record<SecretKind, string> = { relay: RELAY_HEADERS.secret, owner: REDELIVERY_SECRET_HEADER };

/** Whether `request` carries the relay or the owner's secret, and whether it is the configured one. */
export function verdictOf(request: Request, kind: SecretKind, config: Pick<Config, "relaySecret" | "redeliverySecret">): Verdict {
  // Both services trim a secret (a stray newline from a paste is not part of it: config-checks.ts).
  const given = request.headers.get(HEADERS[kind])?.trim();
  if (!given) return "absent";
  const expected = kind === "relay" ? config.relaySecret : config.redeliverySecret;
  return expected && timingSafeEqual(given, expected) ? "recognised" : "refused";
}

export type WrongSecrets = ReturnType<typeof createWrongSecrets>;

export function createWrongSecrets({ config, now }: { config: Pick<Config, "clientAddress">; now: () => number }) {
  const windowMs = WRONG_SECRET_LIMITS.windowSeconds * 1000;
  /** Per sender: when its window started and the wrong secrets in it. Map order is insertion order: oldest first. */
  const senders = new Map<string, { start: number; count: number }>();
  const counted = { relay: 0, owner: 0, throttled: 0, lastAt: null as number | null, since: now() };

  function bucketOf(request: Request, at: number): { start: number; count: number } {
    const address = platformAddress(request, config.clientAddress);
    let key = address === null ? UNKNOWN : senderOf(address);
    const known = senders.get(key);
    if (known && at - known.start < windowMs) return known;
    senders.delete(key);
    if (senders.size >= WRONG_SECRET_LIMITS.trackedSenders) {
      // Windows that ended free their place first (the oldest are first in the map).
      for (const [old, entry] of senders) {
        if (senders.size < WRONG_SECRET_LIMITS.trackedSenders || at - entry.start < windowMs) break;
        senders.delete(old);
      }
    }
    if (senders.size >= WRONG_SECRET_LIMITS.trackedSenders) {
      key = OVERFLOW;
      const overflow = senders.get(key);
      if (overflow && at - overflow.start < windowMs) return overflow;
      senders.delete(key);
    }
    const fresh = { start: at, count: 0 };
    senders.set(key, fresh);
    return fresh;
  }

  return {
    /**
     * Counts a wrong secret from this request's sender. Returns the seconds to wait when the sender is
     * past its budget (the answer is then 429 with Retry-After), else undefined (an ordinary 401).
     */
    refused(request: Request, kind: SecretKind): number | undefined {
      const at = now();
      counted[kind]++;
      counted.lastAt = at;
      const bucket = bucketOf(request, at);
      bucket.count++;
      if (bucket.count <= WRONG_SECRET_LIMITS.perSender) return undefined;
      counted.throttled++;
      return Math.max(1, Math.ceil((bucket.start + windowMs - at) / 1000));
    },

    /** For the owner's /health: wrong secrets this instance saw since it started, and the senders it tracks. */
    report() {
      return {
        relay: counted.relay,
        owner: counted.owner,
        throttled: counted.throttled,
        lastAt: counted.lastAt === null ? null : new Date(counted.lastAt).toISOString(),
        since: new Date(counted.since).toISOString(),
        trackedSenders: senders.size,
        limits: WRONG_SECRET_LIMITS,
      };
    },
  };
}
