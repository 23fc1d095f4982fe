import { equipment, equipmentSection } from "~/content";
import { card } from "~/styles/utilities.css";
import * as styles from "./Equipment.css";
import { Section } from "./Section";

export function Equipment() {
  return (
    <Section name="equipment" heading={equipmentSection.heading} intro={equipmentSection.intro} className={styles.band}>
      <ul className={styles.grid}>
        {equipment.map((group) => (
          <li key={group.category} className={`${card} ${styles.group}`}>
            <h3 className={styles.category}>{group.category}</h3>
            <ul className={styles.items}>
              {group.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <p className={styles.badge}>
        <span aria-hidden="true">★</span>
        {equipmentSection.badge}
      </p>
    </Section>
  );
}
