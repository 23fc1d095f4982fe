// `npm run verify -- --site URL --function URL`: checks a running deployment from outside, as a visitor's
// browser and the platform see it. Sends no mail and stores nothing. Prints one line per check (pass,
// fail or skip, and why) and exits 1 if any check fails. Run it after every deploy (README).
//   --site       the site's public URL (behind its CDN, if it has one)
//   --function   the function's URL: https://<ref>.supabase.co/functions/v1/send-contact-email
//   --anon-key   the public key, sent as supabase-js sends it (default: SUPABASE_ANON_KEY)
//   --mail-from  the function's MAIL_FROM (default: MAIL_FROM, else what the function's details name): its
//                domain's SPF, DKIM and DMARC are looked up (mail-domain.mjs; MAIL_DNS_SERVER picks the resolver)
// With HEALTHZ_SECRET (the site's) in the environment it reads the site's /healthz details: whether the
// proxy in front is trusted, and what the function last told the site about its relay secret.
// With REDELIVERY_SECRET in the environment it also reads the function's health details: configuration
// problems, the redelivery schedule, and which client-address header the platform sets (probed with
// forged values in every candidate header).
// The headers, lists and patterns this script shares with the site and the function come from their
// TypeScript modules, so a copy cannot drift: `npm run verify` runs it with tsx (Node's loader for
// TypeScript; docs/decisions/001).
import { parseArgs } from "node:util";
import { inlineScriptHashes } from "../../app/document/csp.server.ts";
import { ALLOWED_HEADERS } from "../../supabase/functions/_shared/cors.ts";
import { ADDRESS_HEADERS } from "../../supabase/functions/send-contact-email/client-address.ts";
import { LIST_HEADERS } from "../../supabase/functions/send-contact-email/config.ts";
import { shortHash } from "../../supabase/functions/send-contact-email/crypto.ts";
import { REDELIVERY_SECRET_HEADER } from "../../supabase/functions/send-contact-email/health.ts";
import { mailDomainChecks } from "./mail-domain.mjs";

/** What the browser asks the preflight to allow: supabase-js's headers and the enquiry's. */
const ENQUIRY_HEADERS = ALLOWED_HEADERS.split(",").map((header) => header.trim());
const SCHEDULE_MAX_AGE_SECONDS = 15 * 60;

/**
 * Runs every check; returns `[{ name, status: "pass" | "fail" | "skip" | "warn", detail }]` (warn: a risk, not a failure).
 * `siteUrl` and `functionUrl` without a trailing slash.
 * @param {{ siteUrl: string, functionUrl: string, anonKey?: string, redeliverySecret?: string, healthzSecret?: string, mailFrom?: string, studioInbox?: string, timeoutMs?: number }} options
 */
export async function verifyDeployment({
  siteUrl,
  functionUrl,
  anonKey,
  redeliverySecret,
  healthzSecret = undefined,
  mailFrom = undefined,
  studioInbox = undefined,
  timeoutMs = 10_000,
}) {
  const results = [];
  const check = async (name, run) => {
    try {
      const outcome = await run();
      results.push({ name, ...(typeof outcome === "string" ? { status: "pass", detail: outcome } : outcome) });
    } catch (error) {
      results.push({ name, status: "fail", detail: error instanceof Error ? error.message : String(error) });
    }
  };
  const fail = (detail) => ({ status: "fail", detail });
  const skip = (detail) => ({ status: "skip", detail });
  // A failure names the URL it could not reach, and why (fetch's own message is only "fetch failed").
  const request = (url, init = {}) =>
    fetch(url, { redirect: "manual", ...init, signal: AbortSignal.timeout(timeoutMs) }).catch((error) => {
      const cause = error?.cause?.code ?? error?.cause?.message ?? error?.name ?? "";
      throw new Error(`${init.method ?? "GET"} ${url}: ${error?.message ?? error}${cause ? ` (${cause})` : ""}`);
    });
  const keyHeaders = anonKey ? { apikey: anonKey, authorization: `Bearer ${anonKey}` } : {};
  /** The site's /healthz with its details (the owner's secret), or undefined when they are not given. */
  const siteDetails = async (headers = {}) => {
    const body = await (await request(`${siteUrl}/healthz`, { headers: { ...headers, authorization: `Bearer ${healthzSecret}` } })).json();
    return body.configuration ? body : undefined;
  };
  const siteDetailsMissing = () =>
    healthzSecret
      ? fail("the site did not accept the HEALTHZ_SECRET given, so its details are unknown")
      : skip("set HEALTHZ_SECRET (the site's) in the environment to check it");
  const siteOrigin = new URL(siteUrl).origin;

  // --- the site ------------------------------------------------------------------------------
  let page;
  await check("the page answers 200", async () => {
    page = await request(`${siteUrl}/`, { headers: { "accept-encoding": "gzip" } });
    const html = await page.clone().text();
    if (page.status !== 200) return fail(`GET / answered ${page.status}`);
    if (!html.includes("Let&#x27;s Create Together") && !html.includes("Let's Create Together"))
      return fail("the page does not hold the contact section");
    return `200, ${html.length} characters`;
  });
  // Without the page, its checks are skipped; the function's still run.
  const html = page ? await page.text() : "";
  const headers = page?.headers ?? new Headers();
  const pageCheck = (name, run) => (page ? check(name, run) : check(name, async () => skip("the page did not answer")));

  await pageCheck("every inline script is allowed by its hash in the CSP, and no other hash", async () => {
    const csp = headers.get("content-security-policy") ?? "";
    const scriptSrc = /script-src([^;]*)/.exec(csp)?.[1] ?? "";
    if (!scriptSrc) return fail("no script-src in the Content-Security-Policy");
    if (/'unsafe-inline'|'unsafe-eval'|\*/.test(scriptSrc)) return fail(`script-src allows more than hashes: ${scriptSrc.trim()}`);
    // Hashed as the site hashes them (app/document/csp.server.ts).
    const inline = inlineScriptHashes(html);
    const allowed = new Set(scriptSrc.match(/'sha256-[^']+'/g) ?? []);
    const missing = inline.filter((hash) => !allowed.has(hash));
    const extra = [...allowed].filter((hash) => !inline.includes(hash));
    if (missing.length) return fail(`${missing.length} inline script(s) not in the CSP (a CDN that rewrites the HTML breaks them)`);
    if (extra.length) return fail(`${extra.length} hash(es) in the CSP match no script of this page`);
    return `${allowed.size} inline scripts, each allowed by its hash`;
  });

  await pageCheck("HSTS, nosniff and frame-ancestors are set", async () => {
    const problems = [];
    const hsts = Number(/max-age=(\d+)/.exec(headers.get("strict-transport-security") ?? "")?.[1] ?? 0);
    if (hsts < 31536000) problems.push(`Strict-Transport-Security max-age ${hsts} (want a year or more)`);
    if (headers.get("x-content-type-options") !== "nosniff") problems.push("X-Content-Type-Options is not nosniff");
    if (!/frame-ancestors 'none'/.test(headers.get("content-security-policy") ?? "")) problems.push("no frame-ancestors 'none'");
    return problems.length ? fail(problems.join("; ")) : "all three";
  });

  await pageCheck("/ is public-cacheable, with an ETag that revalidates to 304", async () => {
    const cacheControl = headers.get("cache-control") ?? "";
    if (!/\bpublic\b/.test(cacheControl) || !/s-maxage=\d+/.test(cacheControl))
      return fail(`Cache-Control is "${cacheControl}" (a CDN would not keep it)`);
    const etag = headers.get("etag");
    if (!etag) return fail("no ETag");
    const again = await request(`${siteUrl}/`, { headers: { "if-none-match": etag } });
    if (again.status !== 304) return fail(`If-None-Match ${etag} answered ${again.status}, not 304`);
    return `${cacheControl}; ETag ${etag} → 304`;
  });

  await pageCheck("robots.txt and sitemap.xml answer", async () => {
    const [robots, sitemap] = await Promise.all([request(`${siteUrl}/robots.txt`), request(`${siteUrl}/sitemap.xml`)]);
    if (robots.status !== 200 || sitemap.status !== 200) return fail(`robots.txt ${robots.status}, sitemap.xml ${sitemap.status}`);
    const text = await robots.text();
    return text.includes("Sitemap:") ? "both 200; robots.txt names the sitemap" : fail("robots.txt does not name the sitemap");
  });

  await check("the site trusts the proxy in front of it (TRUST_PROXY), so each visitor has their own limit", async () => {
    const details = healthzSecret && (await siteDetails());
    if (!details) return siteDetailsMissing();
    const { forwardedVia } = details;
    if (forwardedVia === "untrusted-proxy")
      return fail(
        "requests arrive through a proxy (X-Forwarded-For) that TRUST_PROXY does not name: every visitor shares its address and its limit; set TRUST_PROXY (README, Behind a CDN or reverse proxy)",
      );
    if (!["trusted-proxy", "direct"].includes(forwardedVia)) return skip(`the site's /healthz does not say (${forwardedVia})`);
    // Too much trust: a visitor's own X-Forwarded-For must not change who the site takes them to be.
    const seen = async (forged) => (await siteDetails({ "x-forwarded-for": forged }))?.visitor;
    if ((await seen("198.51.100.11")) !== (await seen("198.51.100.22")))
      return fail(
        "TRUST_PROXY trusts more hops than the proxies in front: a visitor chooses their own address (and limit) with X-Forwarded-For; name only your proxies (README)",
      );
    return forwardedVia === "trusted-proxy"
      ? "through a proxy TRUST_PROXY names, and a forged X-Forwarded-For changes nothing"
      : "direct (no proxy in front): the socket's address is the visitor's, whatever X-Forwarded-For says";
  });

  // --- the function ------------------------------------------------------------------------------
  await check("the function allows the CORS preflight from the site's origin, with the headers the browser sends", async () => {
    const preflight = await request(functionUrl, {
      method: "OPTIONS",
      headers: {
        origin: siteOrigin,
        "access-control-request-method": "POST",
        "access-control-request-headers": ENQUIRY_HEADERS.join(","),
        ...keyHeaders,
      },
    });
    const allowOrigin = preflight.headers.get("access-control-allow-origin");
    if (allowOrigin !== siteOrigin)
      return fail(`Access-Control-Allow-Origin is ${allowOrigin ?? "missing"} for ${siteOrigin}: add it to the function's ALLOWED_ORIGINS`);
    const allowed = (preflight.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    const missing = ENQUIRY_HEADERS.filter((h) => !allowed.includes(h));
    if (missing.length) return fail(`Access-Control-Allow-Headers lacks ${missing.join(", ")}`);
    return `${preflight.status}, origin and all ${ENQUIRY_HEADERS.length} headers allowed`;
  });

  let details;
  let functionAnswered = false;
  const ownerDetailsMissing = () =>
    !functionAnswered
      ? "the function did not answer (see its health check above)"
      : redeliverySecret
        ? "the function did not accept the REDELIVERY_SECRET given, so its details are unknown"
        : "set REDELIVERY_SECRET in the environment to see why";
  await check("the function's health is ok", async () => {
    const anonymous = await request(`${functionUrl}/health`, { headers: keyHeaders });
    functionAnswered = true;
    const body = await anonymous.json().catch(() => ({}));
    if (redeliverySecret) {
      const owner = await request(`${functionUrl}/health`, { headers: { ...keyHeaders, [REDELIVERY_SECRET_HEADER]: redeliverySecret } });
      details = await owner.json().catch(() => undefined);
      if (details && !details.problems) details = undefined; // the secret was not recognised
    }
    if (body.status !== "ok") {
      const why = details ? describeProblems(details) : ownerDetailsMissing();
      return fail(`/health answered ${anonymous.status} ${JSON.stringify(body)}: ${why}`);
    }
    if (redeliverySecret && !details) return fail("/health is ok, but the REDELIVERY_SECRET given is not the function's");
    if (details?.mail?.accountRefused) return fail(describeProblems(details));
    return details
      ? `ok; database ${details.database.connection} (${details.database.ms} ms), mail by ${details.mail.transport}`
      : "ok (REDELIVERY_SECRET not set: no details)";
  });

  // The sending domain in DNS, and the sender against the inbox (warn: a deliverability risk, not a failure).
  const mail = {
    mailFrom: mailFrom ?? details?.mail?.from,
    studioInbox: studioInbox ?? details?.mail?.studioInbox,
    warnings: details?.warnings,
  };
  for (const { name, run } of mailDomainChecks(mail)) await check(name, run);

  await check("the site's relay is accepted by the function (a probe that stores nothing)", async () => {
    // The site asks the function's /relay-check with its relay secret in the background (every 10 s at
    // most); wait for an answer given after this check started.
    if (!healthzSecret || !(await siteDetails())) return siteDetailsMissing();
    const started = new Date().toISOString();
    const deadline = Date.now() + 25_000;
    for (;;) {
      const fn = (await siteDetails())?.function;
      if (fn?.checkedAt >= started) {
        if (fn.state === "unreachable") return fail(`the site cannot reach the function: ${fn.error}`);
        if (fn.relay === "recognised") return `the function recognises the site's ENQUIRY_RELAY_SECRET (checked ${fn.checkedAt})`;
        return fail(
          `the function ${fn.relay === "refused" ? "does not recognise" : "was not sent"} the site's ENQUIRY_RELAY_SECRET: set the same value on both; no-JavaScript enquiries fail until then`,
        );
      }
      if (Date.now() > deadline)
        return fail(`the site's /healthz has no fresh answer from the function (${fn?.state ?? "no function check"})`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  });

  await check("the client address: which header the platform sets", async () => {
    if (!details) return redeliverySecret ? fail(ownerDetailsMissing()) : skip("set REDELIVERY_SECRET in the environment to probe it");
    const forged = ["198.51.100.11", "198.51.100.22"];
    const probe = async (value) => {
      const sent = Object.fromEntries(ADDRESS_HEADERS.map((h) => [h, h === "forwarded" ? `for=${value}` : value]));
      const response = await request(`${functionUrl}/health`, {
        headers: { ...keyHeaders, ...sent, [REDELIVERY_SECRET_HEADER]: redeliverySecret },
      });
      return (await response.json()).clientAddress.arrived;
    };
    const [a, b] = [await probe(forged[0]), await probe(forged[1])];
    // What the function reports for each forged value: its hash, as the function writes it (crypto.ts).
    const hashesOf = (header) => Promise.all(forged.map((value) => shortHash(header === "forwarded" ? `for=${value}` : value)));
    const findings = await Promise.all(
      ADDRESS_HEADERS.map(async (header) => classify(header, a[header], b[header], await hashesOf(header))),
    );
    const trusted = findings.find((f) => f.kind === "overwritten") ?? findings.find((f) => f.kind === "appended");
    const summary = findings
      .map((f) => `${f.header}: ${f.kind}${f.kind === "appended" ? ` (${f.appended} entr${f.appended === 1 ? "y" : "ies"})` : ""}`)
      .join("; ");
    const configured = details.clientAddress.configured;
    if (!trusted) {
      const line = `none is trustworthy (${summary}): per-sender limits cannot tell visitors apart`;
      return details.production ? fail(line) : skip(`${line} (not on the hosted platform)`);
    }
    const setting = `CLIENT_IP_HEADER=${trusted.header}${trusted.kind === "appended" ? ` CLIENT_IP_TRUSTED_HOPS=${trusted.appended}` : ""}`;
    const hops = details.clientAddress.trustedHops;
    const matches = configured === trusted.header && (trusted.kind !== "appended" || hops === trusted.appended);
    return matches ? `${setting} (as configured); ${summary}` : fail(`set ${setting} (now ${configured}); ${summary}`);
  });

  await check("the redelivery schedule exists and ran recently", async () => {
    if (!details) return redeliverySecret ? fail(ownerDetailsMissing()) : skip("set REDELIVERY_SECRET in the environment to check it");
    const { scheduled, secondsSinceLastRun } = details.redelivery;
    if (scheduled === null && !details.production)
      return skip("pg_cron is not installed on this database (local); the function retries after each enquiry");
    if (scheduled !== true)
      return fail(
        "pg_cron has no active send-contact-email-redeliver job: run `npm run supabase -- db push` (the schedule in supabase/migrations)",
      );
    if (secondsSinceLastRun === null || secondsSinceLastRun > SCHEDULE_MAX_AGE_SECONDS) {
      return fail(
        `the last redelivery ran ${secondsSinceLastRun === null ? "never" : `${Math.round(secondsSinceLastRun / 60)} minutes ago`}: store the two Vault secrets (README) and check cron.job_run_details`,
      );
    }
    return `scheduled; last run ${secondsSinceLastRun} s ago`;
  });
  return results;
}

function describeProblems(details) {
  const parts = [];
  for (const p of details.problems ?? []) parts.push(`${p.variable} ${p.problem}`);
  if (!details.database?.reachable) parts.push(`database unreachable (${details.database?.error})`);
  if (!details.mail?.configured) parts.push(`no mail transport (${details.mail?.reason})`);
  if (details.mail?.studioInboxUndeliverable) parts.push("STUDIO_INBOX bounced");
  if (details.mail?.studioMailDeadLastDay)
    parts.push("a studio notification was given up in the last 24 hours: read it in private.undelivered_mail (README)");
  if (details.mail?.accountRefused)
    parts.push(
      `the mail provider refuses the studio's account since ${details.mail.accountRefused.at} (${details.mail.accountRefused.reason}): check RESEND_API_KEY, MAIL_FROM and the sending domain; mail waits until then`,
    );
  if (details.clientAddress?.missingOnEnquiries) parts.push(`enquiries arrive without ${details.clientAddress.configured}`);
  return parts.join("; ") || "no details";
}

/**
 * What the platform does with a header, from its entries' hashes in two probes with different forged
 * values (`sent`: the hashes of what each probe sent in it).
 */
function classify(header, first, second, sent) {
  if (!first && !second) return { header, kind: "absent" };
  const [a, b] = [first ?? [], second ?? []];
  if (a[0] === sent[0] && b[0] === sent[1]) {
    if (a.length === 1) return { header, kind: "passed through" };
    // The caller's value first, then what proxies added: the same in both probes.
    if (LIST_HEADERS.has(header) && JSON.stringify(a.slice(1)) === JSON.stringify(b.slice(1)))
      return { header, kind: "appended", appended: a.length - 1 };
    return { header, kind: "passed through" };
  }
  if (!a.includes(sent[0]) && JSON.stringify(a) === JSON.stringify(b) && a.length === 1) return { header, kind: "overwritten" };
  return { header, kind: "unclear" };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { site: { type: "string" }, function: { type: "string" }, "anon-key": { type: "string" }, "mail-from": { type: "string" } },
  });
  if (!values.site || !values.function) {
    console.error(
      "usage: npm run verify -- --site https://your-site --function https://<ref>.supabase.co/functions/v1/send-contact-email [--anon-key KEY] [--mail-from ADDRESS]\n(HEALTHZ_SECRET in the environment adds the site's proxy and relay checks; REDELIVERY_SECRET the function's health details, the client-address probe and the schedule)",
    );
    process.exit(2);
  }
  const results = await verifyDeployment({
    siteUrl: values.site.replace(/\/+$/, ""),
    functionUrl: values.function.replace(/\/+$/, ""),
    anonKey: values["anon-key"] ?? process.env.SUPABASE_ANON_KEY,
    redeliverySecret: process.env.REDELIVERY_SECRET,
    healthzSecret: process.env.HEALTHZ_SECRET,
    mailFrom: values["mail-from"] ?? process.env.MAIL_FROM,
    studioInbox: process.env.STUDIO_INBOX,
  });
  for (const { name, status, detail } of results) console.log(`${status.toUpperCase().padEnd(4)}  ${name}: ${detail}`);
  const failed = results.filter((r) => r.status === "fail").length;
  console.log(`\n${results.length - failed} of ${results.length} checks did not fail${failed ? `; ${failed} failed` : ""}.`);
  process.exit(failed ? 1 : 0);
}
