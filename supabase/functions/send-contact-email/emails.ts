/**
 * The mails of an enquiry, as plain text and HTML. Visitor text is always neutralised (nothing
 * invisible reaches a reader) and HTML-escaped, and reaches a header (the Subject) only through
 * `headerText`: the mail library encodes it, never the visitor. Addresses are the contract's ASCII form.
 */
import { domainToUnicode } from "node:url";
import { type ContactMessage, neutralize } from "../_shared/contact-message.ts";

export type Email = { to: string; replyTo?: string; subject: string; text: string; html: string };

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
 * To the visitor: a short confirmation, with the enquiry's reference. It repeats nothing the visitor
 * wrote, not even their name: it goes to an address the sender chose, and every allow-list of "plain
 * words" was found to let some look-alike through (a letter of another script posing as a dot, small
 * capitals spelling "dot com", numerals of another script spelling a phone number). So no text can be
 * sent to a stranger's inbox through the form: the mail is the same for every enquiry but its address
 * (the stored, normalised one) and its reference.
 */
export function visitorConfirmation(opts: { to: string; studioName: string; studioInbox: string; enquiryId: string }): Email {
  const reference = opts.enquiryId.slice(0, 8);
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
    `<p>Hi there,</p><p>Thanks for contacting ${escapeHtml(opts.studioName)}. We received your enquiry ` +
      `(reference ${escapeHtml(reference)}).<br>We'll get back to you within 24 hours.</p>` +
      `<p>If you need us sooner, write to <a href="mailto:${escapeHtml(opts.studioInbox)}">${escapeHtml(opts.studioInbox)}</a>.</p>` +
      `<p>${escapeHtml(opts.studioName)}</p>`,
  );
  return { to: opts.to, replyTo: opts.studioInbox, subject: `We received your enquiry – ${opts.studioName}`, text, html };
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
