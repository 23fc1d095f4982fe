/**
 * A document whose form asks to keep its draft (`data-keeps-draft`, the booking form) gets the small
 * inline script that keeps it across leaving the page and coming Back (app/enquiry/form-draft.inline.ts),
 * at the end of its body. Done here, on the server, so it costs the page's JavaScript nothing, and
 * whether or not the page's hydration is deferred. Allowed by its hash like every inline script.
 */
import { CONTACT_FIELDS } from "#shared/contact-message.ts";
import { DRAFT_ATTRIBUTE, keepFormDraftSource } from "~/enquiry/form-draft.inline";

const DRAFT_FORM = new RegExp(`<form\\b[^>]*\\s${DRAFT_ATTRIBUTE}(=|\\s|>)`);

export function keepFormDrafts(html: string): string {
  const end = html.lastIndexOf("</body>");
  if (end < 0 || !DRAFT_FORM.test(html)) return html;
  return `${html.slice(0, end)}<script>${keepFormDraftSource(CONTACT_FIELDS)}</script>${html.slice(end)}`;
}
