/**
 * Where a successful post without JavaScript is sent (303, Post/Redirect/Get: decision 027): the home
 * page with the spec's success text in the form, and the form empty for another enquiry. A GET page, so
 * Reload, Back and Forward show it again and never post. It shows nothing the visitor sent, yet it is
 * one visitor's result: no handle.cache, so the document pipeline answers it "private, no-store", and
 * shared caches never keep it. Not for search engines: the home page is the page.
 */
import type { MetaFunction } from "@remix-run/node";
import { HomePage } from "~/components/HomePage";
import type { StudioConfig } from "~/config.types";
import { meta as metaText, toasts } from "~/content";
import type { DocumentHandle } from "~/document/handle";
import { pageMeta } from "~/document/page-meta";
import type { FormOutcome } from "~/enquiry/outcome";
import { useRootData } from "~/root";

export const meta: MetaFunction = ({ matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as { studio?: StudioConfig } | undefined;
  if (!root?.studio) return [];
  const home = pageMeta({ studio: root.studio, description: metaText.description });
  return [
    { title: `${toasts.success.title} · ${root.studio.name}` },
    ...home.filter((m) => !("title" in m)),
    { name: "robots", content: "noindex" },
  ];
};

export const handle: DocumentHandle = { hydrate: "on-intent" };

const SENT: FormOutcome = { status: "ok" };

export default function MessageSent() {
  const root = useRootData();
  if (!root) return null;
  return <HomePage studio={root.studio} publicEnv={root.publicEnv} outcome={SENT} />;
}
