// Every mail the function sends (notification, confirmation, digest), produced by the function's own
// code and caught by the real SMTP catcher (scripts/mail/capture.mjs), read back from its raw route:
// - SpamAssassin (Debian's, local rules): the realistic enquiry of a Gmail, an Outlook and a
//   custom-domain visitor scores at most 1.5, and at most 2.5 with production-style Received headers;
// - the Nu HTML checker finds every HTML part valid, hostile enquiries included;
// - the headers a filter and a reader trust, the text part saying what the HTML says;
// - a screenshot of each HTML part at 360 and 800 px (artifacts/mail/), with nothing wider than the screen.
import path from "node:path";
import { chromium } from "@playwright/test";
import type { ParsedMail } from "mailparser";
import { beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, TEST_BROWSER, TEST_CHROMIUM_PATH } from "../../scripts/local-stack/chromium.mjs";
import { ROOT } from "../../scripts/local-stack/processes.mjs";
import { CHECK_STUDIO, captureSampleMail } from "../../scripts/mail/capture.mjs";
import { findJava, nuCheck } from "../../scripts/mail/nu-checker.mjs";
import { writeMailPreview } from "../../scripts/mail/preview.mjs";
import { realistic } from "../../scripts/mail/samples.ts";
import { describeScore, findSpamAssassin, spamScore, spamScores, withProductionReceived } from "../../scripts/mail/spamassassin.mjs";

const ARTIFACTS = path.join(ROOT, "artifacts/mail");
const LOCAL_MAX = 1.5;
const PRODUCTION_MAX = 2.5;
const TYPES = ["notification", "confirmation", "digest"] as const;
const VISITORS = ["gmail", "outlook", "custom"] as const;
const SENDING_DOMAIN = CHECK_STUDIO.MAIL_FROM.replace(/^.*@|>$/g, "");

type Mail = Awaited<ReturnType<typeof writeMailPreview>>[number] & { parsed: ParsedMail };
let mails: Mail[] = [];
const mail = (type: string, sample: string) => {
  const found = mails.find((m) => m.type === type && m.sample === sample);
  if (!found) throw new Error(`no ${type} for ${sample}`);
  return found;
};
const header = (m: Mail, name: string) => {
  const block = m.raw
    .toString("latin1")
    .split(/\r?\n\r?\n/, 1)[0]!
    .replace(/\r?\n[ \t]+/g, " ");
  return [...block.matchAll(new RegExp(`^${name}: (.*)$`, "gim"))].map((match) => match[1]!);
};

beforeAll(async () => {
  mails = (await writeMailPreview(await captureSampleMail(), ARTIFACTS)) as Mail[];
}, 60_000);

const spamassassin = findSpamAssassin();
if (!spamassassin) console.log("SKIP  SpamAssassin scores: `spamassassin` is not installed (scripts/test/setup.sh installs it with apt)");
describe.skipIf(!spamassassin)("SpamAssassin (local rules, -L)", () => {
  type Scored = {
    type: string;
    visitor: string;
    local: Awaited<ReturnType<typeof spamScore>>;
    production: Awaited<ReturnType<typeof spamScore>>;
  };
  let scores: Scored[] = [];
  beforeAll(async () => {
    const cases = TYPES.flatMap((type) => VISITORS.map((visitor) => mail(type, `${visitor}-realistic`)));
    // One run of SpamAssassin for all of them, each as sent and as the receiving server sees it.
    const scored = await spamScores(
      cases.flatMap((m) => {
        const to = m.parsed.to && !Array.isArray(m.parsed.to) ? m.parsed.to.value[0]!.address! : "";
        return [m.raw, withProductionReceived(m.raw, { to, sendingDomain: SENDING_DOMAIN })];
      }),
    );
    scores = cases.map((m, i) => ({
      type: m.type,
      visitor: m.sample.replace("-realistic", ""),
      local: scored[2 * i]!,
      production: scored[2 * i + 1]!,
    }));
    for (const s of scores)
      console.log(
        `SpamAssassin  ${s.type.padEnd(12)} ${s.visitor.padEnd(7)}  local ${describeScore(s.local)}  production-style ${describeScore(s.production)}`,
      );
  }, 120_000);

  for (const type of TYPES)
    for (const visitor of VISITORS)
      it(`the ${type} for a ${visitor} visitor scores at most ${LOCAL_MAX} locally and ${PRODUCTION_MAX} with production-style Received headers`, () => {
        const s = scores.find((x) => x.type === type && x.visitor === visitor)!;
        expect(s.local.score, describeScore(s.local)).toBeLessThanOrEqual(LOCAL_MAX);
        expect(s.production.score, describeScore(s.production)).toBeLessThanOrEqual(PRODUCTION_MAX);
      });

  it("a notification sent From the studio's own inbox (MAIL_FROM = STUDIO_INBOX) is what TO_EQ_FM_DIRECT_MX punishes: the check can fail", async () => {
    const [inboxSender] = await captureSampleMail({ MAIL_FROM: `Studio <${CHECK_STUDIO.STUDIO_INBOX}>` });
    const scored = await spamScore(
      withProductionReceived(inboxSender!.raw, { to: CHECK_STUDIO.STUDIO_INBOX, sendingDomain: SENDING_DOMAIN }),
    );
    console.log(`SpamAssassin  notification from the inbox itself (gmail): production-style ${describeScore(scored)}`);
    expect(scored.rules.map((r) => r.name)).toContain("TO_EQ_FM_DIRECT_MX");
  }, 60_000);
});

const java = findJava();
if (!java) console.log("SKIP  Nu HTML checker: `java` is not installed (scripts/test/setup.sh installs default-jre-headless with apt)");
describe.skipIf(!java)("the Nu HTML checker", () => {
  it("finds the HTML part of every mail valid (title, lang, no obsolete attributes), hostile enquiries included, with no warning", async () => {
    const messages = await nuCheck(mails.map((m) => m.files.html));
    console.log(`Nu HTML checker: ${mails.length} HTML parts, ${messages.length} messages`);
    expect(
      messages.map(
        (m: { file: string; line?: number; type: string; subType?: string; message: string }) =>
          `${path.basename(m.file)}:${m.line} ${m.type}/${m.subType ?? ""} ${m.message}`,
      ),
    ).toEqual([]);
  }, 60_000);
});

describe("headers and parts", () => {
  it("every mail: multipart/alternative with a text and an HTML part, a Date, a Message-ID on the sending domain, From MAIL_FROM's address", () => {
    for (const m of mails) {
      expect(header(m, "Content-Type")[0], m.key).toMatch(/^multipart\/alternative;/);
      expect(m.parsed.text?.trim(), m.key).toBeTruthy();
      expect(m.parsed.html, m.key).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
      expect(header(m, "Date"), m.key).toHaveLength(1);
      expect(header(m, "Message-ID")[0], m.key).toMatch(new RegExp(`^<[^@<>]+@${SENDING_DOMAIN.replace(".", "\\.")}>$`));
      const from = m.parsed.from!.value;
      expect(
        from.map((a: { address?: string }) => a.address),
        m.key,
      ).toEqual([`website@${SENDING_DOMAIN}`]);
    }
  });

  it("the notification is not From its own recipient: it comes from website@, named after the visitor, and Reply-To is the visitor", () => {
    for (const visitor of VISITORS) {
      const m = mail("notification", `${visitor}-realistic`);
      expect(m.parsed.to && !Array.isArray(m.parsed.to) && m.parsed.to.text).toBe(CHECK_STUDIO.STUDIO_INBOX);
      expect(m.parsed.from!.value[0]!.name).toMatch(new RegExp(` via ${CHECK_STUDIO.STUDIO_NAME}$`));
      expect(m.parsed.replyTo!.value.map((a: { address?: string }) => a.address)).toHaveLength(1);
      expect(m.parsed.replyTo!.value[0]!.address).not.toBe(CHECK_STUDIO.STUDIO_INBOX);
    }
    expect(mail("notification", "custom-realistic").parsed.from!.value[0]!.name).toBe(`Sofía Reyes via ${CHECK_STUDIO.STUDIO_NAME}`);
  });

  it("a hostile name or title stays one sender and one subject: no second address, no injected header, no encoded word the visitor wrote", () => {
    for (const sample of ["markup-and-encoded-words", "invisible-rtl-and-long"]) {
      const m = mail("notification", sample);
      expect(m.parsed.from!.value.map((a: { address?: string }) => a.address)).toEqual([`website@${SENDING_DOMAIN}`]);
      expect(m.parsed.from!.value[0]!.name).not.toMatch(/[<>@"]|=\?/);
      expect(m.parsed.to && !Array.isArray(m.parsed.to) && m.parsed.to.value.length).toBe(1);
      expect(header(m, "Bcc")).toEqual([]);
      expect(m.parsed.subject).not.toMatch(/=\?/);
      expect(m.parsed.subject).not.toMatch(/\n/);
    }
  });
});

describe("what the mails say", () => {
  it("the notification shows everything the visitor typed, escaped, its lines as <br> and paragraphs (no white-space CSS), and the text part says the same", () => {
    const m = mail("notification", "gmail-realistic");
    const html = m.parsed.html as string;
    expect(html).not.toMatch(/white-space\s*:\s*pre/);
    expect(html).toContain("Hi! We&#39;re a four-piece indie band (drums, bass, two guitars, vocals).<br>We&#39;d like to track 4 songs");
    expect(html).toContain("Thanks,<br>Maya</p>");
    for (const value of [
      "Maya Okafor",
      "maya.okafor@gmail.com",
      "Debut EP – 4 songs, live tracking",
      "Could you send your day rate and whether mixing is included?",
    ]) {
      expect(m.parsed.text).toContain(value);
      expect(html).toContain(value.replace(/'/g, "&#39;"));
    }
    // The plain text holds every line of the details, as typed.
    expect(m.parsed.text).toContain("We'd like to track 4 songs live over two days in March, then overdub vocals.\n\nCould you send");
  });

  it("for each realistic enquiry, the notification's and the digest's HTML and text parts both hold every field and every line of the details", () => {
    const visible = (html: string) =>
      html
        .replace(/<br>/g, "\n")
        .replace(/<[^>]+>/g, "")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, "&");
    for (const visitor of VISITORS) {
      const { message } = realistic(visitor);
      const values = [message.name, message.email, message.projectTitle, ...message.projectDetails.split("\n").filter(Boolean)];
      // The Gmail visitor's digest lists the three realistic enquiries (send-samples.ts).
      for (const [type, sample] of [
        ["notification", `${visitor}-realistic`],
        ["digest", "gmail-realistic"],
      ] as const) {
        const m = mail(type, sample);
        for (const value of values) {
          expect(m.parsed.text, `${type} ${visitor} text`).toContain(value);
          expect(visible(m.parsed.html as string), `${type} ${visitor} html`).toContain(value);
        }
      }
    }
  });

  it("the notification answers in one click: a mailto link to the visitor with the subject filled in, and Reply-To", () => {
    const m = mail("notification", "outlook-realistic");
    expect(m.parsed.html).toContain('href="mailto:liam.tremblay@outlook.com?subject=Re%3A%20Podcast%20intro%20and%20voice-over%20session"');
    expect(m.parsed.html).toMatch(/>Reply to Liam Tremblay<\/a>/);
    expect(m.parsed.replyTo!.text).toBe("liam.tremblay@outlook.com");
  });

  it("hostile markup arrives as text, never as markup", () => {
    for (const type of ["notification", "digest"]) {
      const html = mail(type, "markup-and-encoded-words").parsed.html as string;
      expect(html, type).not.toMatch(/<(script|img|b)[\s>]|<h1>broken|href="javascript|<[^>]*\sonerror=/i);
      expect(html, type).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
      expect(html, type).toContain("&amp;amp; already escaped");
    }
  });

  it("the confirmation repeats nothing the visitor typed, for any sample", () => {
    for (const m of mails.filter((x) => x.type === "confirmation")) {
      const sample = m.sample;
      const all = `${m.parsed.subject}\n${m.parsed.text}\n${m.parsed.html}\n${m.parsed.from?.text}`;
      for (const word of ["Maya", "Okafor", "Debut", "Liam", "Podcast", "Sofía", "Quartet", "Bobby", "script", "Zoë", "FREE", "AAAA"])
        expect(all, `${sample}: ${word}`).not.toContain(word);
    }
  });
});

describe.skipIf(!TEST_BROWSER)("rendering (Chromium, screenshots in artifacts/mail/)", () => {
  it("every HTML part fits a 360 px and an 800 px screen (no sideways scrolling), screenshots taken", async () => {
    const browser = await chromium.launch({ executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ javaScriptEnabled: false });
      const wide: string[] = [];
      for (const m of mails)
        for (const width of [360, 800]) {
          await page.setViewportSize({ width, height: 640 });
          await page.setContent(m.parsed.html as string);
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          if (scrollWidth > width) wide.push(`${m.type}--${m.sample} at ${width}: ${scrollWidth} px`);
          await page.screenshot({ path: path.join(ARTIFACTS, "screenshots", `${m.type}--${m.sample}--${width}.png`), fullPage: true });
        }
      expect(wide).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
