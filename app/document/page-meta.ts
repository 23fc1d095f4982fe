/** Title, description, social cards and structured data for the home page, all from content + config. */
import type { MetaDescriptor } from "@remix-run/node";
import type { StudioConfig } from "~/config.types";
import { amountsOf, contactSection, faq, hero, money, packages, services } from "~/content";

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
    { "script:ld+json": structuredData(studio) },
  ];
}

/** schema.org LocalBusiness (a RecordingStudio is not a schema.org type) plus FAQPage. */
export function structuredData(studio: StudioConfig) {
  const amounts = [...services.flatMap((service) => amountsOf(service.price)), ...packages.map((pkg) => pkg.price)];
  return {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "LocalBusiness",
        "@id": `${studio.siteUrl}/#studio`,
        name: studio.name,
        description: hero.tagline,
        url: `${studio.siteUrl}/`,
        image: `${studio.siteUrl}${SOCIAL_IMAGE.path}`,
        email: studio.email,
        priceRange: `${money(Math.min(...amounts))} - ${money(Math.max(...amounts))}`,
        address: {
          "@type": "PostalAddress",
          streetAddress: studio.address.street,
          addressLocality: studio.address.locality,
          addressRegion: studio.address.region,
          postalCode: studio.address.postalCode,
          addressCountry: studio.address.country,
        },
        // Open every day, all day: what the contact section's hours card says (its text is the description).
        openingHoursSpecification: {
          "@type": "OpeningHoursSpecification",
          dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
          opens: "00:00",
          closes: "23:59",
          description: contactSection.hoursCard.hours,
        },
        sameAs: [studio.socialUrl],
        makesOffer: [
          ...services.map((service) => ({
            "@type": "Offer",
            name: service.title,
            description: service.description,
            priceCurrency: "CAD",
            ...("per" in service.price
              ? {
                  price: service.price.amount,
                  priceSpecification: {
                    "@type": "UnitPriceSpecification",
                    price: service.price.amount,
                    priceCurrency: "CAD",
                    unitText: service.price.per,
                  },
                }
              : {
                  priceSpecification: {
                    "@type": "PriceSpecification",
                    minPrice: service.price.from,
                    maxPrice: service.price.to,
                    priceCurrency: "CAD",
                  },
                }),
          })),
          ...packages.map((pkg) => ({
            "@type": "Offer",
            name: pkg.title,
            description: `${pkg.description} ${pkg.savingsText}.`,
            price: pkg.price,
            priceCurrency: "CAD",
          })),
        ],
      },
      {
        "@type": "FAQPage",
        mainEntity: faq.map((item) => ({
          "@type": "Question",
          name: item.question,
          acceptedAnswer: { "@type": "Answer", text: item.answer },
        })),
      },
    ],
  };
}
