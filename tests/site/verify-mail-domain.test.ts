// `npm run verify`'s mail checks (scripts/deploy/mail-domain.mjs) against a real DNS server on
// 127.0.0.1 (npm dns2), started here with the zones of a well set-up studio and of broken ones; the
// resolver is pointed at it through MAIL_DNS_SERVER, as the README documents. No internet, no mock.
import dns2 from "dns2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLocalOrExampleHost } from "#shared/config-checks.ts";
import { isDocumentationDomain, mailDomainChecks, mailResolver } from "../../scripts/deploy/mail-domain.mjs";
import { freePort } from "../../scripts/local-stack/ports.mjs";
import { runVerify } from "./run-verify";

const { Packet } = dns2;
/** A 1024-bit RSA public key, base64, as Resend's DKIM record holds one (split in 255-byte strings in DNS). */
const DKIM_KEY =
  "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDGMjj8MVpkGSdlwhrtkxGcFSKbQLEN3Ey8Hn0vGp5qYwhC4OJaa1n0d6mWOuW5Zu5WG7PFZS2LmlnZr6Yb0FSYMcRfGBXv9rmtlBlUfKhDdnbl/9hHqOKLtHGAy9M9lKEu0LGXGFxVfBvhUdQ+FoL7Ky9OIXeM4Ph0hk3VcBtE+QIDAQAB";

type Zone = Record<string, { txt?: string[]; mx?: string[] }>;
const ZONE: Zone = {
  // Set up as the README says.
  "send.lakeshoresound.ca": { txt: ["v=spf1 include:amazonses.com ~all"], mx: ["feedback-smtp.us-east-1.amazonses.com"] },
  "resend._domainkey.lakeshoresound.ca": { txt: [`p=${DKIM_KEY}`] },
  "_dmarc.lakeshoresound.ca": { txt: ["v=DMARC1; p=none; rua=mailto:dmarc@lakeshoresound.ca"] },
  // SPF without Resend, a revoked DKIM key, no DMARC anywhere.
  "send.brokenstudio.ca": { txt: ["v=spf1 include:_spf.google.com ~all"], mx: ["feedback-smtp.us-east-1.amazonses.com"] },
  "resend._domainkey.brokenstudio.ca": { txt: ["v=DKIM1; k=rsa; p="] },
  // A subdomain sender: its DMARC is its organisation's; SPF there but no MX for bounces.
  "send.mail.quietroom.ca": { txt: ["v=spf1 include:amazonses.com ~all"] },
  "resend._domainkey.mail.quietroom.ca": { txt: [`p=${DKIM_KEY}`] },
  "_dmarc.quietroom.ca": { txt: ["v=DMARC1; p=quarantine"] },
  // Under a two-label public suffix: the organisation is studio.co.uk, not co.uk. Its SPF carries controls.
  "send.mail.northstudio.co.uk": { txt: ["v=spf1 include:amazonses.com ~all\u001b[2J\r\nPASS  fake line"] },
  "_dmarc.northstudio.co.uk": { txt: ["v=DMARC1; p=reject"] },
};

let server: ReturnType<typeof dns2.createServer>;
/** A record as dns2 encodes it (its types want a parsed Resource). */
type Answer = InstanceType<typeof Packet>["answers"][number];
let dnsServer = "";
beforeAll(async () => {
  server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const entry = question ? ZONE[question.name.toLowerCase()] : undefined;
      if (!entry)
        response.header.rcode = 3; // NXDOMAIN
      else if (question!.type === Packet.TYPE.TXT)
        for (const text of entry.txt ?? [])
          response.answers.push({
            name: question!.name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 300,
            data: text.match(/.{1,255}/g) ?? [""],
          } as unknown as Answer);
      else if (question!.type === Packet.TYPE.MX)
        for (const exchange of entry.mx ?? [])
          response.answers.push({
            name: question!.name,
            type: Packet.TYPE.MX,
            class: Packet.CLASS.IN,
            ttl: 300,
            priority: 10,
            exchange,
          } as unknown as Answer);
      send(response);
    },
  });
  const port = await freePort();
  await server.listen({ udp: { port, address: "127.0.0.1" }, tcp: { port, address: "127.0.0.1" } });
  dnsServer = `127.0.0.1:${port}`;
});
afterAll(async () => {
  await server?.close();
});

async function run(
  mailFrom: string | undefined,
  extra: { studioInbox?: string; warnings?: { variable: string; problem: string }[]; dns?: string } = {},
) {
  const resolver = mailResolver({ MAIL_DNS_SERVER: extra.dns ?? dnsServer }, 1000);
  const results: Record<string, { status: string; detail: string }> = {};
  for (const { name, run: check } of mailDomainChecks({ mailFrom, studioInbox: extra.studioInbox, warnings: extra.warnings, resolver })) {
    const key = name.split(":")[0]!.startsWith("the notification") ? "sender" : name.split(":")[0]!;
    try {
      const outcome = await check();
      results[key] = typeof outcome === "string" ? { status: "pass", detail: outcome } : outcome;
    } catch (error) {
      results[key] = { status: "fail", detail: (error as Error).message };
    }
  }
  return results;
}

describe("the sending domain's DNS, looked up on a real DNS server", () => {
  it("a domain set up as the README says passes SPF, DKIM and DMARC, each with the record found", async () => {
    const r = await run("Lakeshore Sound Studio <website@lakeshoresound.ca>", { studioInbox: "bookings@lakeshoresound.ca" });
    expect(r.SPF).toEqual({
      status: "pass",
      detail: 'send.lakeshoresound.ca TXT "v=spf1 include:amazonses.com ~all"; MX feedback-smtp.us-east-1.amazonses.com',
    });
    expect(r.DKIM!.status).toBe("pass");
    expect(r.DKIM!.detail).toMatch(/^resend\._domainkey\.lakeshoresound\.ca TXT "p=MIGfMA0GCSqGSIb3/);
    expect(r.DMARC!.status).toBe("pass");
    expect(r.DMARC!.detail).toMatch(/^_dmarc\.lakeshoresound\.ca TXT "v=DMARC1; p=none; .*monitoring only/);
    expect(r.sender).toEqual({
      status: "pass",
      detail: "MAIL_FROM website@lakeshoresound.ca is not STUDIO_INBOX (bookings@lakeshoresound.ca)",
    });
  });

  it("fails SPF without Resend's include, DKIM with an empty key and a missing DMARC, saying what to add", async () => {
    const r = await run("Studio <website@brokenstudio.ca>");
    expect(r.SPF).toEqual({
      status: "fail",
      detail:
        'send.brokenstudio.ca has "v=spf1 include:_spf.google.com ~all", without include:amazonses.com: Resend\'s servers are not allowed',
    });
    expect(r.DKIM!.status).toBe("fail");
    expect(r.DKIM!.detail).toMatch(/empty or broken key/);
    expect(r.DMARC).toEqual({
      status: "fail",
      detail: 'no DMARC record at _dmarc.brokenstudio.ca: add TXT "v=DMARC1; p=none;" to start (README, Mail)',
    });
  });

  it("a subdomain sender: SPF without an MX for bounces fails; DMARC falls back to the organisation's record", async () => {
    const r = await run("website@mail.quietroom.ca");
    expect(r.SPF!.status).toBe("fail");
    expect(r.SPF!.detail).toMatch(/no MX record: bounces cannot reach Resend/);
    expect(r.DKIM!.status).toBe("pass");
    expect(r.DMARC).toEqual({ status: "pass", detail: '_dmarc.quietroom.ca TXT "v=DMARC1; p=quarantine"' });
  });

  it("under a two-label suffix (.co.uk) DMARC falls back to the organisation's record; a record's controls are never printed raw", async () => {
    const r = await run("website@mail.northstudio.co.uk");
    expect(r.DMARC).toEqual({ status: "pass", detail: '_dmarc.northstudio.co.uk TXT "v=DMARC1; p=reject"' });
    // eslint-disable-next-line no-control-regex -- the point: no control character reaches the terminal
    for (const result of Object.values(r)) expect(result.detail).not.toMatch(/[\u0000-\u001f]/);
  });

  it("a domain with no records at all fails each check; an unreachable DNS server fails naming the lookup", async () => {
    const none = await run("website@nowhere.ca");
    expect([none.SPF!.status, none.DKIM!.status, none.DMARC!.status]).toEqual(["fail", "fail", "fail"]);
    expect(none.SPF!.detail).toBe('no SPF record at send.nowhere.ca: add TXT "v=spf1 include:amazonses.com ~all" (README, Mail)');
    const down = await run("website@lakeshoresound.ca", { dns: `127.0.0.1:${await freePort()}` });
    expect(down.SPF!.status).toBe("fail");
    expect(down.SPF!.detail).toMatch(/^looking up TXT send\.lakeshoresound\.ca failed \((ECONNREFUSED|ETIMEOUT)\)$/);
  });

  it("skips the DNS checks without a sender, or for a documentation domain", async () => {
    const unknown = await run(undefined);
    expect(unknown.SPF).toEqual({ status: "skip", detail: expect.stringMatching(/^MAIL_FROM is not known/) });
    const example = await run("Studio <website@studio.example>");
    expect(example.DKIM).toEqual({ status: "skip", detail: expect.stringMatching(/documentation or local domain \(studio\.example\)/) });
  });

  it("MAIL_FROM the same as STUDIO_INBOX is a warning (the function's own, or found here), never a failure", async () => {
    const same = await run("Studio <Bookings@lakeshoresound.ca>", { studioInbox: "bookings@lakeshoresound.ca" });
    expect(same.sender!.status).toBe("warn");
    expect(same.sender!.detail).toMatch(/looks forged to spam filters; send from website@lakeshoresound\.ca/);
    const fromFunction = await run("bookings@lakeshoresound.ca", {
      warnings: [{ variable: "MAIL_FROM", problem: "is the studio's inbox (…)" }],
    });
    expect(fromFunction.sender).toEqual({ status: "warn", detail: "MAIL_FROM is the studio's inbox (…)" });
  });

  it("the documentation domains are the function's (one list, two languages)", () => {
    for (const host of [
      "studio.example",
      "example.com",
      "a.example.org",
      "x.test",
      "y.invalid",
      "localhost",
      "127.0.0.1",
      "lakeshoresound.ca",
      "example.ca",
      "testing.com",
    ])
      expect(isDocumentationDomain(host), host).toBe(isLocalOrExampleHost(host));
  });
});

describe("npm run verify", () => {
  it("prints SPF, DKIM and DMARC for --mail-from, looked up through MAIL_DNS_SERVER, and a WARN when MAIL_FROM is STUDIO_INBOX", async () => {
    const closed = await freePort();
    const { output } = await runVerify(
      [
        "--site",
        `http://127.0.0.1:${closed}`,
        "--function",
        `http://127.0.0.1:${closed}/functions/v1/send-contact-email`,
        "--mail-from",
        "Studio <bookings@lakeshoresound.ca>",
      ],
      { MAIL_DNS_SERVER: dnsServer, STUDIO_INBOX: "bookings@lakeshoresound.ca", REDELIVERY_SECRET: "" },
    );
    const line = (start: string) => output.split("\n").find((l) => l.includes(start)) ?? `(no line for ${start})`;
    expect(line("SPF:")).toMatch(/^PASS\s+SPF: .*send\.lakeshoresound\.ca TXT "v=spf1 include:amazonses\.com ~all"/);
    expect(line("DKIM:")).toMatch(/^PASS\s+DKIM: .*resend\._domainkey\.lakeshoresound\.ca TXT "p=/);
    expect(line("DMARC:")).toMatch(/^PASS\s+DMARC: .*_dmarc\.lakeshoresound\.ca TXT "v=DMARC1; p=none/);
    expect(line("sender is not the studio's inbox")).toMatch(/^WARN\s+.*looks forged to spam filters/);
  }, 60_000);
});
