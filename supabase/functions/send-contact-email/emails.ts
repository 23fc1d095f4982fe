/** The two mails of an enquiry, as plain text and HTML. Visitor text is always HTML-escaped. */
import type { ContactMessage } from "../_shared/contact-message.ts";

export type Email = { to: string; replyTo?: string; subject: string; text: string; html: string };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
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
  return { to: opts.studioInbox, replyTo: message.email, subject: `New enquiry: ${message.projectTitle}`, text, html };
}

/**
 * To the visitor: a short confirmation. It repeats only their name and project title, never the
 * free-text details, so the form cannot be used to send arbitrary text to a stranger's inbox.
 */
export function visitorConfirmation(message: ContactMessage, opts: { studioName: string; studioInbox: string }): Email {
  const text = [
    `Hi ${message.name},`,
    "",
    `Thanks for contacting ${opts.studioName} about "${message.projectTitle}".`,
    "We'll get back to you within 24 hours.",
    "",
    `If you need us sooner, write to ${opts.studioInbox}.`,
    "",
    opts.studioName,
  ].join("\n");
  const html = layout(
    `<p>Hi ${escapeHtml(message.name)},</p><p>Thanks for contacting ${escapeHtml(opts.studioName)} about ` +
      `&ldquo;${escapeHtml(message.projectTitle)}&rdquo;.<br>We'll get back to you within 24 hours.</p>` +
      `<p>If you need us sooner, write to <a href="mailto:${escapeHtml(opts.studioInbox)}">${escapeHtml(opts.studioInbox)}</a>.</p>` +
      `<p>${escapeHtml(opts.studioName)}</p>`,
  );
  return { to: message.email, replyTo: opts.studioInbox, subject: `We received your enquiry – ${opts.studioName}`, text, html };
}
