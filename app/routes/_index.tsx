import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { HomePage, homeMeta } from "~/components/HomePage";
import { config } from "~/config.server";
import type { DocumentHandle } from "~/document/handle";
import { answerEnquiryForm } from "~/enquiry/action.server";
import { useRootData } from "~/root";

export const meta = homeMeta;

// The page works without JavaScript and is the same for every visitor; its booking form is an island (decisions 012 and 030).
export const handle: DocumentHandle = { island: true, cache: "public" };

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
