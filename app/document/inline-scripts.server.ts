/**
 * The page's inline script, added at the end of the body: the phone menu's link handler wherever the
 * header is (components/header-menu.inline.ts), and, where the route asks for the island, the booking
 * form's layer (enquiry/form-layer.inline.ts), which knows the island's modules from the build's
 * manifest. One script element, allowed by its hash like every inline script (csp.server.ts).
 */
import type { EntryContext } from "@remix-run/node";
import { closeMenuOnLinkSource, MENU_ATTRIBUTE } from "~/components/header-menu.inline";
import { FORM_ATTRIBUTE, formLayerSource } from "~/enquiry/form-layer.inline";

export function addInlineScripts(html: string, { island, manifest }: { island: boolean; manifest: EntryContext["manifest"] }): string {
  const end = html.lastIndexOf("</body>");
  if (end < 0) return html;
  const has = (attribute: string) => new RegExp(`\\s${attribute}(=|\\s|>)`).test(html);
  const sources = [
    has(MENU_ATTRIBUTE) ? closeMenuOnLinkSource() : "",
    island && has(FORM_ATTRIBUTE) ? formLayerSource({ entry: manifest.entry.module, imports: manifest.entry.imports }) : "",
  ].join("");
  return sources ? `${html.slice(0, end)}<script>${sources}</script>${html.slice(end)}` : html;
}
