/**
 * Where a successful post without JavaScript is sent (303, Post/Redirect/Get: decision 027). A GET page,
 * so Reload, Back and Forward show it again and never post. It shows nothing the visitor sent, yet it is
 * one visitor's result: no handle.cache, so the document pipeline answers it "private, no-store", and
 * shared caches never keep it. Not for search engines: the home page is the page.
 */
import type { DocumentHandle } from "~/document/handle";
import { SentPage, sentPageMeta } from "~/enquiry/sent-page.server";

export const meta = sentPageMeta;

// Only a visitor without JavaScript (or whose scripts failed) comes here: no island (no handle.island),
// its form only posts.
export const handle: DocumentHandle = {};

export default function MessageSent() {
  return <SentPage />;
}
