import { equipment, equipmentSection } from "~/content";
import { card, container, section, sectionHeading, sectionIntro } from "~/styles/utilities.css";
import * as styles from "./Equipment.css";

export function Equipment() {
  return (
    <section id="equipment" className={`${section} ${styles.band}`} aria-labelledby="equipment-title">
      <div className={container}>
        <h2 id="equipment-title" className={sectionHeading}>
          {equipmentSection.heading}
        </h2>
        <p className={sectionIntro}>{equipmentSection.intro}</p>
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
      </div>
    </section>
  );
}
