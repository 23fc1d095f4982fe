import * as Accordion from "@radix-ui/react-accordion";
import { useEffect, useState } from "react";
import { faq, faqSection } from "~/content";
import { container, section, sectionHeading } from "~/styles/utilities.css";
import * as styles from "./Faq.css";

const items = faq.map((item, index) => ({ ...item, value: `faq-${index + 1}` }));

export function Faq() {
  // Radix leaves closed answers out of the DOM, so the server renders every item open: the page
  // reads completely without JavaScript. Once hydrated it becomes the spec's accordion: one item
  // open at a time, and the open one can be closed again.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const list = items.map((item) => (
    <Accordion.Item key={item.value} value={item.value} className={styles.item}>
      <Accordion.Header className={styles.heading}>
        <Accordion.Trigger className={styles.trigger}>
          {item.question}
          <svg className={styles.chevron} aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="m5 8 5 5 5-5" />
          </svg>
        </Accordion.Trigger>
      </Accordion.Header>
      <Accordion.Content className={styles.content}>
        <p>{item.answer}</p>
      </Accordion.Content>
    </Accordion.Item>
  ));

  return (
    <section id="faq" className={section} aria-labelledby="faq-title">
      <div className={container}>
        <h2 id="faq-title" className={sectionHeading}>
          {faqSection.heading}
        </h2>
        {hydrated ? (
          <Accordion.Root type="single" collapsible className={styles.list}>
            {list}
          </Accordion.Root>
        ) : (
          <Accordion.Root type="multiple" value={items.map((item) => item.value)} className={styles.list}>
            {list}
          </Accordion.Root>
        )}
      </div>
    </section>
  );
}
