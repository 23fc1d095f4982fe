import { Section } from "~/components/Section";
import type { PublicEnv, StudioConfig } from "~/config.types";
import { contactSection } from "~/content";
import { card, visuallyHidden } from "~/styles/utilities.css";
import { ContactIsland } from "./ContactIsland";
import * as styles from "./ContactSection.css";
import type { FormOutcome } from "./outcome";

type Props = {
  studio: StudioConfig;
  publicEnv: PublicEnv;
  outcome?: FormOutcome;
};

/** The contact section (anchor #contact): the booking form, how to reach the studio, its hours. */
export function ContactSection({ studio, publicEnv, outcome }: Props) {
  const { formCard, touchCard, hoursCard } = contactSection;
  const { street, locality, region, postalCode } = studio.address;
  return (
    <Section name="contact" heading={contactSection.heading} intro={contactSection.subtitle} className={styles.band}>
      <div className={styles.layout}>
        <div className={`${card} ${styles.formCard}`}>
          <h3 className={styles.cardTitle}>{formCard.title}</h3>
          <p className={styles.cardDescription}>{formCard.description}</p>
          <ContactIsland studioEmail={studio.email} publicEnv={publicEnv} outcome={outcome} />
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
    </Section>
  );
}
