import { memo, type ComponentProps } from "react";
import { ContactSection } from "~/enquiry/ContactSection";
import { HydrationPart as Part } from "~/hydration/HydrationPart";
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
 * Each part hydrates on its own, in slices, while the visitor's input stays with the plain HTML until
 * all have (app/hydration/guard-input-from-react.ts, decision 016).
 *
 * Memoised: Remix re-renders the route whenever the address changes, and in-page links (Book Now,
 * the menu) change only its fragment; the loader data stays the same, so the page is not rendered
 * again for them.
 */
export const HomePage = memo(function HomePage({ studio, publicEnv, outcome }: HomePageProps) {
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
