import type { MetaFunction } from "@remix-run/node";
import type { ComponentProps } from "react";
import type { StudioConfig } from "~/config.types";
import { meta as metaText } from "~/content";
import { pageMeta } from "~/document/page-meta";
import { ContactSection } from "~/enquiry/ContactSection";
import { skipLink } from "~/styles/utilities.css";
import { Equipment } from "./Equipment";
import { Faq } from "./Faq";
import { Footer } from "./Footer";
import { Gallery } from "./Gallery";
import { Header } from "./Header";
import { Hero } from "./Hero";
import { Services } from "./Services";

type HomePageProps = ComponentProps<typeof ContactSection>;

/**
 * The page's content: the home page (app/routes/_index.tsx) and the page a successful post without
 * JavaScript is sent to (app/routes/message-sent.tsx), which shows it with the success notice in the form.
 * Rendered on the server only: the booking form is the one island the browser runs (decision 030).
 */
export const homeMeta: MetaFunction = ({ matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as { studio?: StudioConfig } | undefined;
  return root?.studio ? pageMeta({ studio: root.studio, description: metaText.description }) : [];
};

export function HomePage({ studio, publicEnv, outcome }: HomePageProps) {
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
        <ContactSection studio={studio} publicEnv={publicEnv} outcome={outcome} />
        <Faq />
      </main>
      <Footer studioName={studio.name} email={studio.email} />
    </>
  );
}
