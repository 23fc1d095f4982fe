import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { randomUUID } from "node:crypto";
import { Contact } from "~/components/Contact";
import { Equipment } from "~/components/Equipment";
import { Faq } from "~/components/Faq";
import { Footer } from "~/components/Footer";
import { Gallery } from "~/components/Gallery";
import { Header } from "~/components/Header";
import { Hero } from "~/components/Hero";
import { Services } from "~/components/Services";
import { meta as metaText } from "~/content";
import { useRootData } from "~/root";
import type { StudioConfig } from "~/config";
import { config } from "~/studio.server";
import { submitEnquiryForm } from "~/utils/enquiry.server";
import { pageMeta } from "~/utils/seo";
import { skipLink } from "~/styles/utilities.css";

export const meta: MetaFunction = ({ matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as { studio?: StudioConfig } | undefined;
  return root?.studio ? pageMeta({ studio: root.studio, description: metaText.description }) : [];
};

export async function loader() {
  // A fresh key and timestamp per page: the no-JS form posts them back (idempotency, bot check).
  return json({ idempotencyKey: randomUUID(), renderedAt: Date.now() });
}

export async function action({ request }: ActionFunctionArgs) {
  const { publicEnv } = config();
  const outcome = await submitEnquiryForm(request, {
    supabaseUrl: publicEnv.supabaseUrl,
    anonKey: publicEnv.supabaseAnonKey,
    relaySecret: process.env.ENQUIRY_RELAY_SECRET,
  });
  const status = { ok: 200, missing: 400, invalid: 400, failed: 502 }[outcome.status];
  return json(outcome, { status });
}

export default function Index() {
  const root = useRootData();
  const { idempotencyKey, renderedAt } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  if (!root) return null;
  const { studio, publicEnv } = root;
  return (
    <>
      <a href="#main" className={skipLink}>
        Skip to content
      </a>
      <Header studioName={studio.name} />
      <main id="main">
        <Hero studioName={studio.name} />
        <Services />
        <Equipment />
        <Gallery />
        <Contact
          studio={studio}
          publicEnv={publicEnv}
          idempotencyKey={idempotencyKey}
          renderedAt={renderedAt}
          outcome={outcome}
        />
        <Faq />
      </main>
      <Footer studioName={studio.name} email={studio.email} />
    </>
  );
}
