/**
 * The booking form and its toasts: the page's one island (decision 030). The server renders it inside
 * the page with its props beside it as JSON; app/entry.client.tsx hydrates this container alone with
 * the same props, so the island renders exactly what the server did.
 */
import type { ComponentProps } from "react";
import { ToastViewport } from "~/toasts/Toasts";
import { ContactForm } from "./ContactForm";

export const ISLAND_ID = "contact-island";
export const ISLAND_PROPS_ID = "contact-island-props";

export type IslandProps = ComponentProps<typeof ContactForm>;

/** What React renders in the island's container, on the server and in the browser. */
export function IslandContent(props: IslandProps) {
  return (
    <>
      <ContactForm {...props} />
      <ToastViewport />
    </>
  );
}

/** The island as the server renders it: its container, and its props for the browser. */
export function ContactIsland(props: IslandProps) {
  // `<` escaped: no text a prop holds can end the script element.
  const json = JSON.stringify(props).replace(/</g, "\\u003c");
  return (
    <>
      <div id={ISLAND_ID}>
        <IslandContent {...props} />
      </div>
      <script type="application/json" id={ISLAND_PROPS_ID} dangerouslySetInnerHTML={{ __html: json }} />
    </>
  );
}
