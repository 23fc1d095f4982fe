/**
 * The mails of an enquiry, as plain text and HTML. Visitor text is always HTML-escaped, and reaches a
 * header (the Subject) only through `headerText`: the mail library encodes it, never the visitor.
 */
import type { ContactMessage } from "../_shared/contact-message.ts";

export type Email = { to: string; replyTo?: string; subject: string; text: string; html: string };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Visitor text bound for a mail header. Line breaks and control characters never get this far (the
 * contract refuses them). What is left to neutralise is an RFC 2047 encoded word the visitor typed
 * ("=?utf-8?Q?...?="): a mail client would decode it into anything, a line break and a "Bcc:" line
 * included. A word joiner (U+2060, invisible) after each "=" of "=?" breaks the sequence; being
 * non-ASCII, it also makes the mail library encode the whole header itself, so the Subject shows,
 * on one line, exactly what the visitor typed.
 */
export function headerText(value: string): string {
  return value.replace(/=\?/g, "=\u2060?").replace(/\?=/g, "?\u2060=");
}

/** At most `max` characters a person sees, with an ellipsis when cut. */
export function shorten(value: string, max: number): string {
  const characters = [...value];
  return characters.length <= max ? value : `${characters.slice(0, max - 1).join("").trimEnd()}…`;
}

// A URL or a bare domain ("spam.example/x"): mail clients turn either into a link.
const LINK_LIKE = /[a-z][a-z0-9+.-]*:\/\/|www\.|[\p{L}\p{N}-]+\.[\p{L}]{2,}(?![\p{L}\p{N}])|@/iu;

/**
 * Visitor text repeated in the confirmation, which goes to an address the sender chose: only short,
 * link-free text, so the form cannot carry someone's message or link to a stranger's inbox.
 */
export function confirmationText(value: string, max: number, fallback: string): string {
  return LINK_LIKE.test(value) ? fallback : shorten(value, max);
}

const layout = (body: string) =>
  `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#17151d">${body}</body></html>`;

/** To the studio: the whole enquiry, with Reply-To set to the visitor. */
export function studioNotification(message: ContactMessage, opts: { studioInbox: string; enquiryId: string }): Email {
  const details = message.projectDetails || "(none)";
  const text = [
    `New booking enquiry (${opts.enquiryId})`,
    "",
    `Name: ${message.name}`,
    `Email: ${message.email}`,
    `Project title: ${message.projectTitle}`,
    "",
    "Project details:",
    details,
    "",
    "Reply to this e-mail to answer the visitor.",
  ].join("\n");
  const row = (label: string, value: string) =>
    `<tr><th align="left" style="padding:4px 12px 4px 0">${label}</th><td>${escapeHtml(value)}</td></tr>`;
  const html = layout(
    `<h1 style="font-size:20px">New booking enquiry</h1><table>${row("Name", message.name)}${row("Email", message.email)}${row(
      "Project title",
      message.projectTitle,
    )}</table><h2 style="font-size:16px">Project details</h2><p style="white-space:pre-wrap">${escapeHtml(details)}</p>` +
      `<p style="color:#555">Enquiry ${escapeHtml(opts.enquiryId)}. Reply to this e-mail to answer the visitor.</p>`,
  );
  return { to: opts.studioInbox, replyTo: message.email, subject: headerText(`New enquiry: ${message.projectTitle}`), text, html };
}

/**
 * To the visitor: a short confirmation. It repeats only their name and project title, shortened and
 * only when they hold no link, never the free-text details: the form cannot be used to send arbitrary
 * text or links to a stranger's inbox.
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
 * each with its sender and title, the details shortened; the full rows are in contact_enquiries.
 */
export function studioDigest(
  enquiries: { enquiryId: string; message: ContactMessage; createdAt: Date }[],
  opts: { studioInbox: string },
): Email {
  const subject = `${enquiries.length} ${enquiries.length === 1 ? "enquiry" : "enquiries"} held during a busy period`;
  const intro = "These arrived while enquiries came in faster than usual, so they are sent together. " +
    "Reply to each visitor at the address given; every enquiry is stored in full (contact_enquiries).";
  const text = [
    subject,
    "",
    intro,
    ...enquiries.flatMap(({ enquiryId, message, createdAt }) => [
      "",
      `- ${message.projectTitle}`,
      `  From: ${message.name} <${message.email}>, ${createdAt.toISOString()}`,
      `  ${shorten(message.projectDetails || "(no details)", 300).replace(/\s+/g, " ")}`,
      `  Enquiry ${enquiryId}`,
    ]),
  ].join("\n");
  const items = enquiries
    .map(({ enquiryId, message, createdAt }) =>
      `<li><strong>${escapeHtml(message.projectTitle)}</strong><br>From ${escapeHtml(message.name)} &lt;${escapeHtml(message.email)}&gt;, ` +
      `${escapeHtml(createdAt.toISOString())}<br><span style="color:#555">${escapeHtml(shorten(message.projectDetails || "(no details)", 300))}</span>` +
      `<br><small>Enquiry ${escapeHtml(enquiryId)}</small></li>`
    )
    .join("");
  const html = layout(`<h1 style="font-size:20px">${escapeHtml(subject)}</h1><p>${escapeHtml(intro)}</p><ul>${items}</ul>`);
  return { to: opts.studioInbox, subject, text, html };
}
