// The sending domain of MAIL_FROM, checked in DNS as Gmail, Yahoo and Outlook check it (README, Mail:
// the records a Resend sender needs), and the sender checked against the studio's inbox. Used by
// `npm run verify` (verify.mjs); each check answers pass, fail, skip or warn, with the record found.
//   SPF    TXT at send.<domain> (Resend's return-path subdomain) includes amazonses.com, and its MX
//          (feedback-smtp.<region>.amazonses.com) takes the bounces;
//   DKIM   TXT at resend._domainkey.<domain> (Resend's selector) holds a public key (p=…);
//   DMARC  TXT at _dmarc.<domain> (else at the parent domain) is v=DMARC1 with a policy.
// MAIL_DNS_SERVER ("host[:port]", comma-separated) sends the lookups to that server instead of the
// system's resolver: the tests' DNS server on 127.0.0.1, or a resolver of your choice.
import { Resolver } from "node:dns/promises";

export const DNS_SERVER_VARIABLE = "MAIL_DNS_SERVER";
/** Resend's DKIM selector and return-path subdomain (resend.com/docs/dashboard/domains/introduction). */
export const RESEND = Object.freeze({ dkimSelector: "resend", returnPath: "send", spfInclude: "amazonses.com" });

/**
 * A resolver for the checks: MAIL_DNS_SERVER's servers when set; a lookup gives up after `timeoutMs`.
 * @param {Record<string, string | undefined>} [env]
 */
export function mailResolver(env = process.env, timeoutMs = 3000) {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  const servers = env[DNS_SERVER_VARIABLE]?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (servers?.length) resolver.setServers(servers);
  return resolver;
}

/** The address of "Name <address>" or of a bare address, lowercased. */
export function addressOf(mailbox) {
  return (/<([^<>]*)>\s*$/.exec(mailbox)?.[1] ?? mailbox).trim().toLowerCase();
}

/**
 * Domains no one sends from: this machine and the names reserved for documentation and tests. The same
 * list as isLocalOrExampleHost in supabase/functions/_shared/config-checks.ts (a test holds them equal;
 * Node 20 cannot import that TypeScript here).
 */
export function isDocumentationDomain(domain) {
  const name = domain.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || /^\d+\.\d+\.\d+\.\d+$/.test(name)) return true;
  return /(^|\.)(example|test|invalid|localhost)$/.test(name) || /(^|\.)example\.(com|net|org)$/.test(name);
}

/** The TXT records at `name`, each joined from its strings; [] when there is none (NXDOMAIN, NODATA). */
async function txt(resolver, name) {
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
  } catch (error) {
    if (error?.code === "ENOTFOUND" || error?.code === "ENODATA") return [];
    throw new Error(`looking up TXT ${name} failed (${error?.code ?? error})`);
  }
}
async function mx(resolver, name) {
  try {
    return await resolver.resolveMx(name);
  } catch (error) {
    if (error?.code === "ENOTFOUND" || error?.code === "ENODATA") return [];
    throw new Error(`looking up MX ${name} failed (${error?.code ?? error})`);
  }
}
// A record is text from someone's DNS: its controls (a terminal's escapes, line breaks) are shown as "?".
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const printable = (text) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
const shown = (record) => `"${printable(record.length > 90 ? `${record.slice(0, 87)}...` : record)}"`;

/**
 * The checks, as `[{ name, run }]` for verify.mjs's `check(name, run)`; `run` returns a detail string
 * (pass) or `{ status, detail }`. `mailFrom`: MAIL_FROM (--mail-from, the environment, or the function's
 * /health details). `studioInbox` and `warnings` (the function's own deliverability warnings) feed the
 * sender check.
 * @param {{ mailFrom?: string, studioInbox?: string, warnings?: { variable: string, problem: string }[], resolver?: Resolver }} options
 */
export function mailDomainChecks({ mailFrom, studioInbox, warnings, resolver = mailResolver() }) {
  const address = mailFrom ? addressOf(mailFrom) : "";
  const domain = address.includes("@") ? address.slice(address.lastIndexOf("@") + 1) : "";
  const skipWhy = !domain
    ? "MAIL_FROM is not known: pass --mail-from, set MAIL_FROM, or set REDELIVERY_SECRET so the function's details name it"
    : isDocumentationDomain(domain)
      ? `MAIL_FROM is at a documentation or local domain (${domain}): nothing to look up`
      : undefined;
  const dns = (run) => async () => (skipWhy ? { status: "skip", detail: skipWhy } : run());
  const fail = (detail) => ({ status: "fail", detail });

  return [
    {
      name: "the notification's sender is not the studio's inbox (deliverability)",
      run: async () => {
        const warning = warnings?.find((w) => w.variable === "MAIL_FROM");
        if (warning) return { status: "warn", detail: `MAIL_FROM ${warning.problem}` };
        if (!address || (!studioInbox && !warnings))
          return { status: "skip", detail: "MAIL_FROM and STUDIO_INBOX are not known (set REDELIVERY_SECRET, or both variables)" };
        if (studioInbox && addressOf(studioInbox) === address)
          return {
            status: "warn",
            detail: `MAIL_FROM is the studio's inbox (${address}): mail From and To one address looks forged to spam filters; send from website@${domain} (README, Mail)`,
          };
        return `MAIL_FROM ${address}${studioInbox ? ` is not STUDIO_INBOX (${addressOf(studioInbox)})` : ""}`;
      },
    },
    {
      name: `SPF: send.<domain> (Resend's return path) allows ${RESEND.spfInclude} and takes bounces`,
      run: dns(async () => {
        const name = `${RESEND.returnPath}.${domain}`;
        const spf = (await txt(resolver, name)).filter((r) => /^v=spf1(\s|$)/i.test(r));
        if (spf.length === 0) return fail(`no SPF record at ${name}: add TXT "v=spf1 include:${RESEND.spfInclude} ~all" (README, Mail)`);
        if (spf.length > 1) return fail(`${spf.length} SPF records at ${name} (receivers treat that as an error): keep one`);
        if (!new RegExp(`(^|\\s)[+]?include:${RESEND.spfInclude.replace(".", "\\.")}(\\s|$)`, "i").test(spf[0]))
          return fail(`${name} has ${shown(spf[0])}, without include:${RESEND.spfInclude}: Resend's servers are not allowed`);
        const exchanges = await mx(resolver, name);
        if (exchanges.length === 0)
          return fail(`${name} has ${shown(spf[0])} but no MX record: bounces cannot reach Resend (README, Mail)`);
        return `${name} TXT ${shown(spf[0])}; MX ${exchanges.map((e) => e.exchange).join(", ")}`;
      }),
    },
    {
      name: `DKIM: ${RESEND.dkimSelector}._domainkey.<domain> holds Resend's public key`,
      run: dns(async () => {
        const name = `${RESEND.dkimSelector}._domainkey.${domain}`;
        const records = await txt(resolver, name);
        if (records.length === 0) return fail(`no DKIM record at ${name}: copy the TXT record Resend shows for the domain (README, Mail)`);
        const key = records.map((r) => /(?:^|;)\s*p=([^;]*)/.exec(r)?.[1]?.replace(/\s+/g, "")).find((p) => p !== undefined);
        if (key === undefined) return fail(`${name} has ${shown(records[0])}, which holds no key (p=)`);
        if (!/^[A-Za-z0-9+/]{100,}={0,2}$/.test(key))
          return fail(`${name} has an empty or broken key (p=${key.slice(0, 20) || ""}): copy it again from Resend`);
        return `${name} TXT ${shown(records.find((r) => r.includes(key.slice(0, 20))) ?? records[0])}`;
      }),
    },
    {
      name: "DMARC: _dmarc.<domain> has a policy",
      run: dns(async () => {
        const labels = domain.split(".");
        // A subdomain without its own record falls under its organisation's (RFC 7489 §6.6.3). Without the
        // public suffix list, every parent with two labels or more is tried, nearest first: the
        // organisation's record is found under a two-label suffix too (mail.studio.co.uk -> studio.co.uk).
        const candidates = labels.slice(0, -1).map((_, i) => `_dmarc.${labels.slice(i).join(".")}`);
        for (const name of candidates) {
          const dmarc = (await txt(resolver, name)).filter((r) => /^v=DMARC1(\s*;|\s*$)/i.test(r));
          if (dmarc.length === 0) continue;
          if (dmarc.length > 1) return fail(`${dmarc.length} DMARC records at ${name}: receivers ignore them all; keep one`);
          const policy = /;\s*p=(none|quarantine|reject)\s*(;|$)/i.exec(dmarc[0])?.[1]?.toLowerCase();
          if (!policy) return fail(`${name} has ${shown(dmarc[0])}, without a valid p= (none, quarantine or reject)`);
          const note = policy === "none" ? " (monitoring only: move to p=quarantine once the reports show only your own mail)" : "";
          return `${name} TXT ${shown(dmarc[0])}${note}`;
        }
        return fail(`no DMARC record at ${candidates.join(" or ")}: add TXT "v=DMARC1; p=none;" to start (README, Mail)`);
      }),
    },
  ];
}
