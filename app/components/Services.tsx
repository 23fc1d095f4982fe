import { packages, services, servicesSection } from "~/content";
import { card, sectionIntro } from "~/styles/utilities.css";
import { Section } from "./Section";
import * as styles from "./Services.css";

const icons: Record<string, string> = {
  Recording: "M12 2a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V5a3 3 0 0 0-3-3Zm7 9a7 7 0 0 1-14 0M12 18v4m-4 0h8",
  Mixing: "M4 21v-7m0-4V3m8 18v-9m0-4V3m8 18v-5m0-4V3M1 14h6m2-6h6m2 8h6",
  Mastering: "M3 12h3l3-8 4 16 3-8h5",
  "Room Rental": "M3 21h18M5 21V5a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2v16M14 12h.01",
};

export function Services() {
  return (
    <Section name="services" heading={servicesSection.heading} intro={servicesSection.intro}>
      <ul className={styles.grid}>
        {services.map((service) => (
          <li key={service.title} className={`${card} ${styles.serviceCard}`}>
            <span className={styles.icon} aria-hidden="true">
              <svg
                width="24"
                height="24"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              >
                <path d={icons[service.title]} />
              </svg>
            </span>
            <h3 className={styles.cardTitle}>{service.title}</h3>
            <p className={styles.description}>{service.description}</p>
            <ul className={styles.features}>
              {service.features.map((feature) => (
                <li key={feature} className={styles.feature}>
                  {feature}
                </li>
              ))}
            </ul>
            <p className={styles.price}>{service.priceText}</p>
          </li>
        ))}
      </ul>

      <h3 className={styles.packagesHeading}>{servicesSection.packagesHeading}</h3>
      <p className={sectionIntro}>{servicesSection.packagesIntro}</p>
      <ul className={styles.grid}>
        {packages.map((pkg) => (
          <li key={pkg.title} className={`${card} ${styles.packageCard}`}>
            <h4 className={styles.cardTitle}>{pkg.title}</h4>
            <p className={styles.description}>{pkg.description}</p>
            <p className={styles.packagePrice}>{pkg.priceText}</p>
            <p className={styles.savings}>{pkg.savingsText}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
