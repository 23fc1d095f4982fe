import { faq, faqSection } from "~/content";
import * as styles from "./Faq.css";
import { Section } from "./Section";

/** The name that makes the native `<details>` elements one exclusive accordion (one open at a time). */
const GROUP = "faq";

const items = faq.map((item, index) => ({
  ...item,
  value: `faq-${index + 1}`,
  questionId: `faq-${index + 1}-question`,
  answerId: `faq-${index + 1}-answer`,
}));

const Chevron = () => (
  <svg
    className={styles.chevron}
    aria-hidden="true"
    width="20"
    height="20"
    viewBox="0 0 20 20"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
  >
    <path d="m5 8 5 5 5-5" />
  </svg>
);

/**
 * The spec's accordion (one item open at a time; the open one closes again) as native
 * `<details name="faq">`: it works without JavaScript, by mouse, touch and keyboard, and screen readers
 * move through the questions by heading (each question is an `<h3>` in its `<summary>`). The page runs
 * no script for it (decisions 011 and 030).
 */
export function Faq() {
  return (
    <Section name="faq" heading={faqSection.heading}>
      <div className={styles.list}>
        {items.map((item) => (
          <details key={item.value} name={GROUP} data-value={item.value} className={styles.item}>
            <summary id={item.questionId} className={`${styles.trigger} ${styles.summary}`}>
              <h3 className={styles.question}>{item.question}</h3>
              <Chevron />
            </summary>
            <div id={item.answerId} role="region" aria-labelledby={item.questionId} className={styles.content}>
              <p>{item.answer}</p>
            </div>
          </details>
        ))}
      </div>
    </Section>
  );
}
