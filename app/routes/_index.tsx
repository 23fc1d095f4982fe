import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { memo, type ComponentProps } from "react";
import { Equipment } from "~/components/Equipment";
import { Faq } from "~/components/Faq";
import { Footer } from "~/components/Footer";
import { Gallery } from "~/components/Gallery";
import { Header } from "~/components/Header";
import { Hero } from "~/components/Hero";
import { Services } from "~/components/Services";
import { config } from "~/config.server";
import type { StudioConfig } from "~/config.types";
import { meta as metaText } from "~/content";
import type { DocumentHandle } from "~/document/handle";
import { pageMeta } from "~/document/page-meta";
import { submitEnquiryForm } from "~/enquiry/action.server";
import { ContactSection } from "~/enquiry/ContactSection";
import { HydrationPart as Part } from "~/hydration/HydrationPart";
import { useRootData } from "~/root";
import { skipLink } from "~/styles/utilities.css";

export const meta: MetaFunction = ({ matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as { studio?: StudioConfig } | undefined;
  return root?.studio ? pageMeta({ studio: root.studio, description: metaText.description }) : [];
};

// The page works without JavaScript and is the same for every visitor (decisions 008 and 012).
export const handle: DocumentHandle = { hydrate: "on-intent", cache: "public" };

export async function action({ request }: ActionFunctionArgs) {
  const { publicEnv, relaySecret, server } = config();
  const { outcome, httpStatus } = await submitEnquiryForm(request, {
    supabaseUrl: publicEnv.supabaseUrl,
    anonKey: publicEnv.supabaseAnonKey,
    relaySecret,
    bodyTimeoutMs: server.formBodyTimeoutMs,
  });
  return json(outcome, { status: httpStatus });
}

export default function Index() {
  const root = useRootData();
  const outcome = useActionData<typeof action>();
  if (!root) return null;
  return <HomePage studio={root.studio} publicEnv={root.publicEnv} outcome={outcome} />;
}

type HomePageProps = ComponentProps<typeof ContactSection>;

/**
 * The page's content. Each part hydrates on its own, in slices, while the visitor's input stays with
 * the plain HTML until all have (app/hydration/guard-input-from-react.ts, decision 016).
 *
 * Memoised: Remix re-renders the route whenever the address changes, and in-page links (Book Now,
 * the menu) change only its fragment; the loader data stays the same, so the page is not rendered
 * again for them.
 */
const HomePage = memo(function HomePage({ studio, publicEnv, outcome }: HomePageProps) {
  return (
    <>
      <a href="#main" className={skipLink}>
        Skip to content
      </a>
      <Part>
        <Header studioName={studio.name} />
      </Part>
      <main id="main">
        <Part>
          <Hero studioName={studio.name} />
          <Services />
          <Equipment />
          <Gallery />
        </Part>
        <Part>
          <ContactSection studio={studio} publicEnv={publicEnv} outcome={outcome} />
        </Part>
        <Part>
          <Faq />
        </Part>
      </main>
      <Part>
        <Footer studioName={studio.name} email={studio.email} />
      </Part>
    </>
  );
});
