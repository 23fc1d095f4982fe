import * as Accordion from "@radix-ui/react-accordion";
import { startTransition, useEffect, useState } from "react";
import { faq, faqSection } from "~/content";
import { container, section, sectionHeading } from "~/styles/utilities.css";
import * as styles from "./Faq.css";

const items = faq.map((item, index) => ({
  ...item,
  value: `faq-${index + 1}`,
  questionId: `faq-${index + 1}-question`,
  answerId: `faq-${index + 1}-answer`,
}));

/** The spec's accordion on top of Radix's "multiple" one: opening an item closes the one that was open. */
function onlyNewlyOpened(next: string[], current: string[]) {
  return next.filter((value) => !current.includes(value));
}

export function Faq() {
  // The server renders every answer open, as plain markup, so the page reads completely without
  // JavaScript (or before it arrives). After hydration the answers collapse into the accordion, in a
  // transition: hydration itself mounts no Radix content, whose layout effects measure each answer.
  // `null` means "not enhanced yet".
  const [open, setOpen] = useState<string[] | null>(null);
  useEffect(() => startTransition(() => setOpen([])), []);

  return (
    <section id="faq" className={section} aria-labelledby="faq-title">
      <div className={container}>
        <h2 id="faq-title" className={sectionHeading}>
          {faqSection.heading}
        </h2>
        <Accordion.Root
          type="multiple"
          value={open ?? items.map((item) => item.value)}
          onValueChange={(next) => setOpen(onlyNewlyOpened(next, open ?? []))}
          className={styles.list}
        >
          {items.map((item) => (
            <Accordion.Item key={item.value} value={item.value} className={styles.item}>
              <Accordion.Header className={styles.heading}>
                <Accordion.Trigger id={item.questionId} aria-controls={item.answerId} className={styles.trigger}>
                  {item.question}
                  <svg className={styles.chevron} aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2">
                    <path d="m5 8 5 5 5-5" />
                  </svg>
                </Accordion.Trigger>
              </Accordion.Header>
              {open ? (
                <Accordion.Content id={item.answerId} aria-labelledby={item.questionId} className={styles.content}>
                  <p>{item.answer}</p>
                </Accordion.Content>
              ) : (
                <div id={item.answerId} role="region" aria-labelledby={item.questionId} data-state="open" className={styles.content}>
                  <p>{item.answer}</p>
                </div>
              )}
            </Accordion.Item>
          ))}
        </Accordion.Root>
      </div>
    </section>
  );
}
