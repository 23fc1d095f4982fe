/** Built on the server only (see page-meta.ts): the browser reads it back from the rendered page. */
import type { StudioConfig } from "~/config.types";
import { amountsOf, contactSection, faq, hero, money, packages, services } from "~/content";

/** schema.org LocalBusiness (a RecordingStudio is not a schema.org type) plus FAQPage. */
export function structuredData(studio: StudioConfig, image: string) {
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
        image,
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
