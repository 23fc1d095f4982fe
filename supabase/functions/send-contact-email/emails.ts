/**
 * The mails of an enquiry, as plain text and HTML. Visitor text is always neutralised (nothing
 * invisible reaches a reader) and HTML-escaped, and reaches a header (the Subject) only through
 * `headerText`: the mail library encodes it, never the visitor. Addresses are the contract's ASCII form.
 * The HTML is a valid document (title, lang; checked by the Nu HTML checker in `npm test`) that keeps
 * to what every mail client renders: line breaks as <br> and paragraphs, never CSS (Outlook for
 * Windows ignores white-space), inline styles only, no images, no scripts (docs/decisions/018).
 */
import { domainToUnicode } from "node:url";
import { type ContactField, type ContactMessage, FIELDS, isBlank, neutralize } from "../_shared/contact-message.ts";

export type Email = {
  to: string;
  replyTo?: string;
  /** The sender's display name for this mail (sender.ts); MAIL_FROM's own name when not set. */
  fromName?: string;
  subject: string;
  /** The whole mail as plain text: everything the HTML part says. */
  text: string;
  html: string;
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
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

/** The studio's language: the mails' own words are English; a visitor's text is marked dir="auto". */
const LANG = "en";
const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** A whole HTML document for a mail: every mail client takes it, and the Nu checker finds it valid. */
function layout(title: string, body: string): string {
  return (
    `<!DOCTYPE html>\n<html lang="${LANG}">\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)}</title>\n</head>\n` +
    `<body style="margin:0;padding:16px;background:#ffffff;color:#17151d;${FONT};font-size:16px;line-height:1.5">\n` +
    `<div style="max-width:600px;overflow-wrap:anywhere;word-break:break-word">\n${body}\n</div>\n</body>\n</html>\n`
  );
}

/**
 * Visitor text of several lines as HTML: escaped; a blank line starts a paragraph, a line break is a
 * <br>. Markup, not CSS, so the lines survive in every client (Outlook ignores white-space: pre-wrap).
 */
export function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((block) => block.replace(/^\n+|\n+$/g, ""))
    .filter((block) => block.trim() !== "")
    .map((block) => `<p dir="auto" style="margin:0 0 12px">${block.split("\n").map(escapeHtml).join("<br>")}</p>`)
    .join("\n");
}

/** A mailto: link's target: the address (percent-encoded where RFC 6068 asks) and a subject. */
export function mailtoHref(address: string, subject?: string): string {
  const to = encodeURIComponent(address).replace(/%40/g, "@");
  return `mailto:${to}${subject ? `?subject=${encodeURIComponent(subject)}` : ""}`;
}

/** The visitor's fields as every mail shows them: nothing invisible, the address with its Unicode form. */
function shown(message: ContactMessage): ContactMessage {
  return Object.fromEntries(
    FIELDS.map(({ name, lines, inputType }) => [
      name,
      inputType === "email"
        ? addressForStudio(message[name])
        : lines === "many"
          ? neutralize(message[name], { lines: true }).replace(/^\n+|\n+$/g, "")
          : neutralize(message[name]),
    ]),
  ) as ContactMessage;
}

/** The fields of one line (a row each in the studio's mail) and of several lines (a section each), in form order. */
const ONE_LINE = FIELDS.filter((f) => f.lines === "one");
const MANY_LINES = FIELDS.filter((f) => f.lines === "many");

/** The short reference the visitor's confirmation gives (the enquiry id's first 8 characters). */
const referenceOf = (enquiryId: string) => enquiryId.slice(0, 8);

/**
 * To the studio: everything the visitor typed, escaped, and one click to answer: Reply-To is the
 * visitor, and a "Reply to …" link opens a mail to them with the subject filled in.
 */
export function studioNotification(message: ContactMessage, opts: { studioInbox: string; enquiryId: string }): Email {
  const visitor = shown(message);
  const subject = headerText(`New enquiry: ${message.projectTitle}`);
  const replySubject = `Re: ${visitor.projectTitle}`;
  const reference = referenceOf(opts.enquiryId);
  const text = [
    "New booking enquiry",
    "",
    ...ONE_LINE.map(({ name, label }) => `${label}: ${visitor[name] || "(none)"}`),
    ...MANY_LINES.flatMap(({ name, label }) => ["", `${label}:`, visitor[name] || "(none)"]),
    "",
    `To answer ${visitor.name}, reply to this e-mail (it goes to ${message.email}).`,
    "",
    `Reference: ${reference} (enquiry ID: ${opts.enquiryId})`,
  ].join("\n");
  const cell = "padding:4px 12px 4px 0;vertical-align:top";
  const row = (label: string, value: string) =>
    `<tr><th scope="row" style="${cell};text-align:left;font-weight:600;white-space:nowrap">${label}</th><td dir="auto" style="${cell}">${value}</td></tr>`;
  const mailto = escapeHtml(mailtoHref(message.email, replySubject));
  const cellOf = (name: ContactField, inputType: string) =>
    inputType === "email"
      ? `<a href="${mailto}" style="color:#4b2bb3">${escapeHtml(visitor[name])}</a>`
      : escapeHtml(visitor[name] || "(none)");
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">New booking enquiry</h1>\n` +
      `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">` +
      ONE_LINE.map(({ name, label, inputType }) => row(escapeHtml(label), cellOf(name, inputType))).join("") +
      `</table>` +
      MANY_LINES.map(
        ({ name, label }) =>
          `\n<h2 style="font-size:16px;margin:0 0 8px">${escapeHtml(label)}</h2>\n` +
          (paragraphs(visitor[name]) || `<p style="margin:0 0 12px">(none)</p>`),
      ).join("") +
      `\n<p style="margin:20px 0"><a href="${mailto}" style="display:inline-block;padding:10px 16px;border-radius:6px;background:#4b2bb3;color:#ffffff;font-weight:600;text-decoration:none">Reply to ${escapeHtml(visitor.name)}</a></p>\n` +
      `<p style="margin:0 0 8px;color:#555555;font-size:14px">Or reply to this e-mail: it goes to ${escapeHtml(message.email)}.</p>\n` +
      `<p style="margin:0;color:#555555;font-size:14px">Reference: ${escapeHtml(reference)} (enquiry ID: ${escapeHtml(opts.enquiryId)})</p>`,
  );
  return { to: opts.studioInbox, replyTo: message.email, subject, text, html };
}

/**
 * To the visitor: a short confirmation, with the enquiry's reference. It repeats nothing the visitor
 * wrote, not even their name: it goes to an address the sender chose, and every allow-list of "plain
 * words" was found to let some look-alike through (a letter of another script posing as a dot, small
 * capitals spelling "dot com", numerals of another script spelling a phone number). So no text can be
 * sent to a stranger's inbox through the form: the mail is the same for every enquiry but its address
 * (the stored, normalised one) and its reference.
 */
export function visitorConfirmation(opts: { to: string; studioName: string; studioInbox: string; enquiryId: string }): Email {
  const reference = referenceOf(opts.enquiryId);
  const subject = `We received your enquiry – ${opts.studioName}`;
  const text = [
    "Hi there,",
    "",
    `Thanks for contacting ${opts.studioName}. We received your enquiry (reference ${reference}).`,
    "We'll get back to you within 24 hours.",
    "",
    `If you need us sooner, write to ${opts.studioInbox}.`,
    "",
    opts.studioName,
  ].join("\n");
  const html = layout(
    subject,
    `<p style="margin:0 0 12px">Hi there,</p>\n<p style="margin:0 0 12px">Thanks for contacting ${escapeHtml(opts.studioName)}. We received your enquiry ` +
      `(reference ${escapeHtml(reference)}).<br>We'll get back to you within 24 hours.</p>\n` +
      `<p style="margin:0 0 12px">If you need us sooner, write to <a href="${escapeHtml(mailtoHref(opts.studioInbox))}" style="color:#4b2bb3">${escapeHtml(opts.studioInbox)}</a>.</p>\n` +
      `<p style="margin:0">${escapeHtml(opts.studioName)}</p>`,
  );
  return { to: opts.to, replyTo: opts.studioInbox, subject, text, html };
}

/** The fields the digest shows in their own places (the title as a heading, the sender, the details); others get a line each. */
const DIGEST_PLACED: readonly ContactField[] = ["name", "email", "projectTitle", "projectDetails"];
const DIGEST_OTHERS = FIELDS.filter((f) => !DIGEST_PLACED.includes(f.name));

/**
 * To the studio, instead of one mail each, for enquiries that arrived past the global rate (a flood):
 * oldest first, each with its sender and title, any other field given, the details shortened, and a
 * link to reply to its visitor; the full rows are in contact_enquiries.
 */
export function studioDigest(
  enquiries: { enquiryId: string; message: ContactMessage; createdAt: Date }[],
  opts: { studioInbox: string },
): Email {
  const subject = `${enquiries.length} ${enquiries.length === 1 ? "enquiry" : "enquiries"} held during a busy period`;
  const intro =
    "These arrived while enquiries came in faster than usual, so they are sent together. " +
    "Reply to each visitor at the address given; every enquiry is stored in full (contact_enquiries).";
  const entries = enquiries.map(({ enquiryId, message, createdAt }) => ({
    enquiryId,
    address: message.email,
    when: createdAt
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d+Z$/, " UTC"),
    details: shorten(neutralize(message.projectDetails, { lines: true }).trim() || "(no details)", 300),
    others: DIGEST_OTHERS.filter(({ name }) => !isBlank(message[name])).map(
      ({ name, label, lines }) => `${label}: ${shorten(neutralize(message[name], { lines: lines === "many" }).trim(), 300)}`,
    ),
    visitor: shown(message),
  }));
  const text = [
    subject,
    "",
    intro,
    ...entries.flatMap(({ enquiryId, when, details, others, visitor }) => [
      "",
      `- ${visitor.projectTitle}`,
      `  From: ${visitor.name} <${visitor.email}>, ${when}`,
      ...[...others, details].flatMap((block) => block.split("\n")).map((line) => `  ${line}`),
      `  Reference: ${referenceOf(enquiryId)} (enquiry ID: ${enquiryId})`,
    ]),
  ].join("\n");
  const items = entries
    .map(
      ({ enquiryId, address, when, details, others, visitor }) =>
        `<li style="margin:0 0 16px"><strong dir="auto">${escapeHtml(visitor.projectTitle)}</strong><br>` +
        `From <span dir="auto">${escapeHtml(visitor.name)}</span> &lt;<a href="${escapeHtml(mailtoHref(address, `Re: ${visitor.projectTitle}`))}" style="color:#4b2bb3">${escapeHtml(visitor.email)}</a>&gt;, ${escapeHtml(when)}<br>` +
        others.map((line) => `<span dir="auto">${line.split("\n").map(escapeHtml).join("<br>")}</span><br>`).join("") +
        `<span dir="auto" style="color:#444444">${details.split("\n").map(escapeHtml).join("<br>")}</span><br>` +
        `<small style="color:#555555">Reference: ${escapeHtml(referenceOf(enquiryId))} (enquiry ID: ${escapeHtml(enquiryId)})</small></li>`,
    )
    .join("\n");
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(subject)}</h1>\n<p style="margin:0 0 12px">${escapeHtml(intro)}</p>\n<ul style="padding-left:20px">\n${items}\n</ul>`,
  );
  return { to: opts.studioInbox, subject, text, html };
}
