import { contactSection } from "~/content";
import type { PublicEnv, StudioConfig } from "~/config";
import { card, container, section, sectionHeading, sectionIntro, visuallyHidden } from "~/styles/utilities.css";
import * as styles from "./Contact.css";
import { ContactForm } from "~/enquiry/ContactForm";
import type { FormOutcome } from "~/enquiry/outcome";

type Props = {
  studio: StudioConfig;
  publicEnv: PublicEnv;
  outcome?: FormOutcome;
};

export function Contact({ studio, publicEnv, outcome }: Props) {
  const { formCard, touchCard, hoursCard } = contactSection;
  const { street, locality, region, postalCode } = studio.address;
  return (
    <section id="contact" className={`${section} ${styles.band}`} aria-labelledby="contact-title">
      <div className={container}>
        <h2 id="contact-title" className={sectionHeading}>
          {contactSection.heading}
        </h2>
        <p className={sectionIntro}>{contactSection.subtitle}</p>
        <div className={styles.layout}>
          <div className={`${card} ${styles.formCard}`}>
            <h3 className={styles.cardTitle}>{formCard.title}</h3>
            <p className={styles.cardDescription}>{formCard.description}</p>
            <ContactForm
              studioEmail={studio.email}
              publicEnv={publicEnv}
              outcome={outcome}
            />
          </div>
          <div className={styles.aside}>
            <div className={card}>
              <h3 className={styles.cardTitle}>{touchCard.title}</h3>
              <dl className={styles.facts}>
                <div>
                  <dt className={styles.factTerm}>{touchCard.emailLabel}</dt>
                  <dd className={styles.factValue}>
                    <a href={`mailto:${studio.email}`}>{studio.email}</a>
                  </dd>
                </div>
                <div>
                  <dt className={styles.factTerm}>{touchCard.addressLabel}</dt>
                  <dd>
                    <address className={styles.factValue}>
                      {street}, {locality}, {region} {postalCode}
                    </address>
                  </dd>
                </div>
                <div>
                  <dt className={styles.factTerm}>{touchCard.socialLabel}</dt>
                  <dd>
                    <a href={studio.socialUrl} target="_blank" rel="noopener noreferrer">
                      {studio.socialLabel}
                      <span className={visuallyHidden}> (opens in a new tab)</span>
                    </a>
                  </dd>
                </div>
              </dl>
            </div>
            <div className={card}>
              <h3 className={styles.cardTitle}>{hoursCard.title}</h3>
              <p className={styles.strong}>{hoursCard.hours}</p>
              <p className={styles.muted}>{hoursCard.note}</p>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
