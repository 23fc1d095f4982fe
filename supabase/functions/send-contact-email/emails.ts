/**
 * The mails of an enquiry, as plain text and HTML. Visitor text is always neutralised (nothing
 * invisible reaches a reader) and HTML-escaped, and reaches a header (the Subject) only through
 * `headerText`: the mail library encodes it, never the visitor. Addresses are the contract's ASCII form.
 */
import { domainToUnicode } from "node:url";
import type { ContactMessage } from "../_shared/contact-message.ts";

export type Email = { to: string; replyTo?: string; subject: string; text: string; html: string };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Visitor text with what a reader cannot see taken out: controls, format characters (bidi overrides
 * and isolates, zero-width characters, the soft hyphen, tag characters, the BOM), private-use and
 * unassigned code points, and the invisible "filler" letters; runs of white space become one space.
 * What is left reads the same in every mail client. `lines: true` keeps line breaks (the details).
 */
export function neutralize(value: string, { lines = false } = {}): string {
  const visible = value.replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\u115F\u1160\u3164\uFFA0\u180E]/gu, (c) =>
    lines && c === "\n" ? c : c === "\t" || c === "\r" || c === "\n" ? " " : "",
  );
  return lines
    ? visible
        .split("\n")
        .map((line) => line.replace(/\p{Z}+/gu, " ").trimEnd())
        .join("\n")
    : visible.replace(/\p{Z}+/gu, " ").trim();
}

/**
 * Visitor text bound for a mail header (the Subject). Line breaks never get this far (the contract
 * refuses them) and what a reader cannot see is taken out (`neutralize`). What is left to break is an
 * RFC 2047 encoded word the visitor typed ("=?utf-8?Q?...?="): a mail client would decode it into
 * anything, a line break and a "Bcc:" line included. A word joiner (U+2060, invisible) after each "="
 * of "=?" breaks the sequence; being non-ASCII, it also makes the mail library encode the whole header
 * itself, so the Subject shows, on one line, what the visitor typed.
 */
export function headerText(value: string): string {
  return neutralize(value).replace(/=\?/g, "=\u2060?").replace(/\?=/g, "?\u2060=");
}

/** At most `max` characters a person sees, with an ellipsis when cut. */
export function shorten(value: string, max: number): string {
  const characters = [...value];
  return characters.length <= max
    ? value
    : `${characters
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

/**
 * Words a visitor may have repeated back to them in the confirmation, which goes to an address the
 * sender chose. An allow-list, after NFKC (fullwidth forms become plain): letters with their marks,
 * ASCII digits (six at most: a year and a volume, never a phone number or an address), spaces and a
 * little punctuation; the letters of one script, or Latin with Han and the scripts written with it
 * (Unicode's "highly restrictive" profile, UTS #39), so no letter of another script can pose as a dot
 * ("evilꓸcom", "evilᐧcom"). Nothing a reader or a mail client could take for a link, an address or a
 * number to call: "spam .com", "spam。com", "ｓｐａｍ．ｃｏｍ", "1.2.3.4/x", "spam dot com",
 * "www spam com", "hxxp spam", "call 1 800 555 0199".
 */
const ECHOABLE = /^[\p{L}\p{M}0-9 '’&,!()-]+$/u;
const SPELLED_LINK = /(^|[^\p{L}])(d\s*o\s*t|www|h[tx]{2}ps?)([^\p{L}]|$)/iu;
/** A mark with no letter before it (NFKC writes "˙" as a space and a combining dot). */
const LOOSE_MARK = /(^|[^\p{L}\p{M}])\p{M}/u;
const MAX_DIGITS = 6;
const SCRIPT_SETS = [
  /\p{scx=Latin}/u,
  /[\p{scx=Latin}\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]/u,
  /[\p{scx=Latin}\p{scx=Han}\p{scx=Bopomofo}]/u,
  /[\p{scx=Latin}\p{scx=Han}\p{scx=Hangul}]/u,
  ...["Greek", "Cyrillic", "Armenian", "Georgian", "Hebrew", "Arabic", "Devanagari", "Bengali", "Tamil", "Thai"].map(
    (script) => new RegExp(`\\p{scx=${script}}`, "u"),
  ),
];
const singleScript = (text: string) => {
  const letters = [...text].filter((c) => /\p{L}/u.test(c));
  return SCRIPT_SETS.some((set) => letters.every((c) => set.test(c)));
};

/** `value` shortened to `max`, or `fallback` when it holds anything that could read as a link. */
export function confirmationText(value: string, max: number, fallback: string): string {
  const text = neutralize(value).normalize("NFKC");
  const echoable =
    text !== "" &&
    ECHOABLE.test(text) &&
    !LOOSE_MARK.test(text) &&
    (text.match(/[0-9]/g)?.length ?? 0) <= MAX_DIGITS &&
    singleScript(text) &&
    !SPELLED_LINK.test(text);
  return echoable ? shorten(text, max) : fallback;
}

/**
 * How the studio sees the visitor's address: as stored (the ASCII form every mail system uses), with
 * the Unicode form of an internationalised domain beside it, and a warning when one of its labels mixes
 * scripts (a domain imitating another: "pаypal" with a Cyrillic "а").
 */
export function addressForStudio(address: string): string {
  const at = address.lastIndexOf("@");
  const ascii = address.slice(at + 1);
  if (!/(^|\.)xn--/.test(ascii)) return address;
  const unicode = domainToUnicode(ascii);
  if (!unicode || unicode === ascii) return address;
  const mixed = unicode.split(".").some((label) => scriptsOf(label).size > 1);
  return `${address} (${address.slice(0, at)}@${unicode}${mixed ? "; warning: its domain mixes scripts, it may imitate another" : ""})`;
}

const SCRIPTS: [string, RegExp][] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Arabic", /\p{Script=Arabic}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
  // Japanese mixes these three by design: one script here.
  ["Japanese", /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ["Hangul", /\p{Script=Hangul}/u],
];
function scriptsOf(label: string): Set<string> {
  const found = new Set<string>();
  for (const char of label) {
    if (!/\p{L}/u.test(char)) continue;
    found.add(SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? "Other");
  }
  return found;
}

const layout = (body: string) =>
  `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#17151d">${body}</body></html>`;

/** The visitor's fields as every mail shows them: nothing invisible, the address with its Unicode form. */
function shown(message: ContactMessage) {
  return {
    name: neutralize(message.name),
    email: addressForStudio(message.email),
    projectTitle: neutralize(message.projectTitle),
    projectDetails: neutralize(message.projectDetails, { lines: true }),
  };
}

/** To the studio: the whole enquiry, with Reply-To set to the visitor. */
export function studioNotification(message: ContactMessage, opts: { studioInbox: string; enquiryId: string }): Email {
  const visitor = shown(message);
  const details = visitor.projectDetails || "(none)";
  const text = [
    `New booking enquiry (${opts.enquiryId})`,
    "",
    `Name: ${visitor.name}`,
    `Email: ${visitor.email}`,
    `Project title: ${visitor.projectTitle}`,
    "",
    "Project details:",
    details,
    "",
    "Reply to this e-mail to answer the visitor.",
  ].join("\n");
  const row = (label: string, value: string) =>
    `<tr><th align="left" style="padding:4px 12px 4px 0">${label}</th><td>${escapeHtml(value)}</td></tr>`;
  const html = layout(
    `<h1 style="font-size:20px">New booking enquiry</h1><table>${row("Name", visitor.name)}${row("Email", visitor.email)}${row(
      "Project title",
      visitor.projectTitle,
    )}</table><h2 style="font-size:16px">Project details</h2><p style="white-space:pre-wrap">${escapeHtml(details)}</p>` +
      `<p style="color:#555">Enquiry ${escapeHtml(opts.enquiryId)}. Reply to this e-mail to answer the visitor.</p>`,
  );
  return { to: opts.studioInbox, replyTo: message.email, subject: headerText(`New enquiry: ${message.projectTitle}`), text, html };
}

/**
 * To the visitor: a short confirmation. It repeats only their name and project title, shortened and
 * only when they hold nothing that could read as a link (`confirmationText`), never the free-text
 * details: the form cannot be used to send arbitrary text or links to a stranger's inbox.
 */
export function visitorConfirmation(message: ContactMessage, opts: { studioName: string; studioInbox: string }): Email {
  const name = confirmationText(message.name, 40, "there");
  const title = confirmationText(message.projectTitle, 60, "your project");
  const text = [
    `Hi ${name},`,
    "",
    `Thanks for contacting ${opts.studioName} about "${title}".`,
    "We'll get back to you within 24 hours.",
    "",
    `If you need us sooner, write to ${opts.studioInbox}.`,
    "",
    opts.studioName,
  ].join("\n");
  const html = layout(
    `<p>Hi ${escapeHtml(name)},</p><p>Thanks for contacting ${escapeHtml(opts.studioName)} about ` +
      `&ldquo;${escapeHtml(title)}&rdquo;.<br>We'll get back to you within 24 hours.</p>` +
      `<p>If you need us sooner, write to <a href="mailto:${escapeHtml(opts.studioInbox)}">${escapeHtml(opts.studioInbox)}</a>.</p>` +
      `<p>${escapeHtml(opts.studioName)}</p>`,
  );
  return { to: message.email, replyTo: opts.studioInbox, subject: `We received your enquiry – ${opts.studioName}`, text, html };
}

/**
 * To the studio, instead of one mail each, for enquiries that arrived past the global rate (a flood):
 * oldest first, each with its sender and title, the details shortened; the full rows are in
 * contact_enquiries.
 */
export function studioDigest(
  enquiries: { enquiryId: string; message: ContactMessage; createdAt: Date }[],
  opts: { studioInbox: string },
): Email {
  const subject = `${enquiries.length} ${enquiries.length === 1 ? "enquiry" : "enquiries"} held during a busy period`;
  const intro =
    "These arrived while enquiries came in faster than usual, so they are sent together. " +
    "Reply to each visitor at the address given; every enquiry is stored in full (contact_enquiries).";
  const entries = enquiries.map(({ enquiryId, message, createdAt }) => ({ enquiryId, createdAt, visitor: shown(message) }));
  const text = [
    subject,
    "",
    intro,
    ...entries.flatMap(({ enquiryId, createdAt, visitor }) => [
      "",
      `- ${visitor.projectTitle}`,
      `  From: ${visitor.name} <${visitor.email}>, ${createdAt.toISOString()}`,
      `  ${shorten(visitor.projectDetails || "(no details)", 300).replace(/\s+/g, " ")}`,
      `  Enquiry ${enquiryId}`,
    ]),
  ].join("\n");
  const items = entries
    .map(
      ({ enquiryId, createdAt, visitor }) =>
        `<li><strong>${escapeHtml(visitor.projectTitle)}</strong><br>From ${escapeHtml(visitor.name)} &lt;${escapeHtml(visitor.email)}&gt;, ` +
        `${escapeHtml(createdAt.toISOString())}<br><span style="color:#555">${escapeHtml(shorten(visitor.projectDetails || "(no details)", 300))}</span>` +
        `<br><small>Enquiry ${escapeHtml(enquiryId)}</small></li>`,
    )
    .join("");
  const html = layout(`<h1 style="font-size:20px">${escapeHtml(subject)}</h1><p>${escapeHtml(intro)}</p><ul>${items}</ul>`);
  return { to: opts.studioInbox, subject, text, html };
}
