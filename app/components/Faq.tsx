import * as Accordion from "@radix-ui/react-accordion";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { faq, faqSection } from "~/content";
import { container, section, sectionHeading } from "~/styles/utilities.css";
import * as styles from "./Faq.css";

/** The name that makes the native `<details>` elements one exclusive accordion (one open at a time). */
const GROUP = "faq";

const items = faq.map((item, index) => ({
  ...item,
  value: `faq-${index + 1}`,
  questionId: `faq-${index + 1}-question`,
  answerId: `faq-${index + 1}-answer`,
}));

// React 18 warns about layout effects on the server, where there is nothing to lay out anyway.
const useBeforePaint = typeof document === "undefined" ? useEffect : useLayoutEffect;

const Chevron = () => (
  <svg className={styles.chevron} aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2">
    <path d="m5 8 5 5 5-5" />
  </svg>
);

/**
 * The spec's accordion (one item open at a time; the open one closes again) from the first byte.
 * The server renders it as native `<details name="faq">`: it works with JavaScript off and before the
 * page hydrates (which waits for the visitor's first intent, decision 008), by mouse, touch and keyboard.
 * Once React runs, the Radix accordion takes over from the state the visitor left: the item they
 * opened stays open and a focused question keeps focus. Both render the same boxes with the same
 * styles, so the switch moves nothing (decision 011). All items start closed: the list is short to
 * scan, the same with and without JavaScript, and its height never depends on a script.
 */
export function Faq() {
  // undefined: still the native accordion (server render and hydration); then the open item's value, "" for none.
  const [open, setOpen] = useState<string | undefined>(undefined);
  const listRef = useRef<HTMLDivElement>(null);
  const refocus = useRef<string | null>(null);

  useEffect(() => {
    const list = listRef.current;
    const opened = list?.querySelector<HTMLElement>("details[open]");
    const focused = document.activeElement;
    if (focused instanceof HTMLElement && list?.contains(focused)) refocus.current = focused.id || null;
    setOpen(opened?.dataset.value ?? "");
  }, []);

  // Before the browser paints the Radix markup: the question that had focus keeps it (same id).
  useBeforePaint(() => {
    if (open === undefined || !refocus.current) return;
    document.getElementById(refocus.current)?.focus();
    refocus.current = null;
  }, [open]);

  return (
    <section id="faq" className={section} aria-labelledby="faq-title">
      <div className={container}>
        <h2 id="faq-title" className={sectionHeading}>
          {faqSection.heading}
        </h2>
        {open === undefined ? (
          <div ref={listRef} className={styles.list}>
            {items.map((item) => (
              <details key={item.value} name={GROUP} data-value={item.value} className={styles.item}>
                <summary id={item.questionId} className={`${styles.trigger} ${styles.summary}`}>
                  {item.question}
                  <Chevron />
                </summary>
                <div id={item.answerId} role="region" aria-labelledby={item.questionId} className={styles.content}>
                  <p>{item.answer}</p>
                </div>
              </details>
            ))}
          </div>
        ) : (
          <Accordion.Root type="single" collapsible value={open} onValueChange={setOpen} className={styles.list}>
            {items.map((item) => (
              <Accordion.Item key={item.value} value={item.value} className={styles.item}>
                <Accordion.Header className={styles.heading}>
                  <Accordion.Trigger id={item.questionId} aria-controls={item.answerId} className={styles.trigger}>
                    {item.question}
                    <Chevron />
                  </Accordion.Trigger>
                </Accordion.Header>
                <Accordion.Content id={item.answerId} aria-labelledby={item.questionId} className={styles.content}>
                  <p>{item.answer}</p>
                </Accordion.Content>
              </Accordion.Item>
            ))}
          </Accordion.Root>
        )}
      </div>
    </section>
  );
}
