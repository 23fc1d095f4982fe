/**
 * The page a successful post without JavaScript is sent to (303, Post/Redirect/Get: decision 027): the
 * home page with the spec's success text in the form, the form empty for another enquiry. Its route
 * sends it without the island (no handle.island), so all it renders lives here, in a `.server` module
 * the browser's build leaves out: the route adds no bytes and no shared chunk to what the home page loads
 * on intent (decision 005).
 */
import type { MetaFunction } from "@remix-run/node";
import { HomePage } from "~/components/HomePage";
import type { StudioConfig } from "~/config.types";
import { meta as metaText, toasts } from "~/content";
import { pageMeta } from "~/document/page-meta";
import type { FormOutcome } from "~/enquiry/outcome";
import { useRootData } from "~/root";

export const sentPageMeta: MetaFunction = ({ matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as { studio?: StudioConfig } | undefined;
  if (!root?.studio) return [];
  const home = pageMeta({ studio: root.studio, description: metaText.description });
  return [
    { title: `${toasts.success.title} · ${root.studio.name}` },
    ...home.filter((m) => !("title" in m)),
    { name: "robots", content: "noindex" },
  ];
};

const SENT: FormOutcome = { status: "ok" };

export function SentPage() {
  const root = useRootData();
  if (!root) return null;
  return <HomePage studio={root.studio} publicEnv={root.publicEnv} outcome={SENT} />;
}
