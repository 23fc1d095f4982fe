import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { HomePage } from "~/components/HomePage";
import { config } from "~/config.server";
import type { StudioConfig } from "~/config.types";
import { meta as metaText } from "~/content";
import type { DocumentHandle } from "~/document/handle";
import { pageMeta } from "~/document/page-meta";
import { answerEnquiryForm } from "~/enquiry/action.server";
import { useRootData } from "~/root";

export const meta: MetaFunction = ({ matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as { studio?: StudioConfig } | undefined;
  return root?.studio ? pageMeta({ studio: root.studio, description: metaText.description }) : [];
};

// The page works without JavaScript and is the same for every visitor (decisions 008 and 012).
export const handle: DocumentHandle = { hydrate: "on-intent", cache: "public" };

export async function action({ request }: ActionFunctionArgs) {
  const { publicEnv, relaySecret, server } = config();
  // A success is sent on to the result page (303); anything else is answered here, values kept (decision 027).
  return answerEnquiryForm(request, {
    supabaseUrl: publicEnv.supabaseUrl,
    anonKey: publicEnv.supabaseAnonKey,
    relaySecret,
    bodyTimeoutMs: server.formBodyTimeoutMs,
  });
}

export default function Index() {
  const root = useRootData();
  const outcome = useActionData<typeof action>();
  if (!root) return null;
  return <HomePage studio={root.studio} publicEnv={root.publicEnv} outcome={outcome} />;
}
