/** Title, description, social cards and structured data for the home page, all from content + config. */
import type { MetaDescriptor } from "@remix-run/node";
import type { StudioConfig } from "~/config.types";
import { hero } from "~/content";
import { structuredData } from "./structured-data.server";

export const SOCIAL_IMAGE = { path: "/og-image.png", width: 1200, height: 630 } as const;

export function pageMeta({ studio, description }: { studio: StudioConfig; description: string }): MetaDescriptor[] {
  const title = `${studio.name} · Recording, Mixing & Mastering in Etobicoke`;
  const url = `${studio.siteUrl}/`;
  const image = `${studio.siteUrl}${SOCIAL_IMAGE.path}`;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: studio.name },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:width", content: String(SOCIAL_IMAGE.width) },
    { property: "og:image:height", content: String(SOCIAL_IMAGE.height) },
    { property: "og:image:alt", content: `${studio.name}: ${hero.tagline}` },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
    ...structuredDataMeta(studio, image),
  ];
}

const LD_JSON = 'script[type="application/ld+json"]';

/**
 * The structured data is built on the server only: the browser bundle gets an empty stand-in for a `.server`
 * module (Remix), which keeps the builder and the prices it walks out of the scripts loaded on intent. In the
 * browser (hydration re-runs meta) it is read back from the page the server rendered, so React sees the same
 * script; after a client-side navigation from a page without it, there is none to read and none is rendered.
 */
function structuredDataMeta(studio: StudioConfig, image: string): MetaDescriptor[] {
  if (typeof structuredData === "function") return [{ "script:ld+json": structuredData(studio, image) }];
  const rendered = document.querySelector(LD_JSON)?.textContent;
  return rendered ? [{ "script:ld+json": JSON.parse(rendered) as unknown }] : [];
}
