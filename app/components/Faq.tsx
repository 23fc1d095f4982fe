import * as Accordion from "@radix-ui/react-accordion";
import { startTransition, useEffect, useLayoutEffect, useRef, useState } from "react";
import { faq, faqSection } from "~/content";
import { whenUntouched } from "~/hydration/run-when-untouched";
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
 * The Radix accordion's items, made once: opening a question re-renders only the two items whose
 * state changes (React skips an element it has seen before), not all of them with their Radix parts.
 */
const radixItems = items.map((item) => (
  <Accordion.Item key={item.value} value={item.value} className={styles.item}>
    <Accordion.Header className={styles.heading}>
      <Accordion.Trigger id={item.questionId} aria-controls={item.answerId} className={styles.trigger}>
        <span className={styles.question}>{item.question}</span>
        <Chevron />
      </Accordion.Trigger>
    </Accordion.Header>
    <Accordion.Content id={item.answerId} aria-labelledby={item.questionId} className={styles.content}>
      <p>{item.answer}</p>
    </Accordion.Content>
  </Accordion.Item>
));

// React 18 warns about layout effects on the server, where there is nothing to lay out anyway.
const useBeforePaint = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * The spec's accordion (one item open at a time; the open one closes again) from the first byte.
 * The server renders it as native `<details name="faq">`, each question an `<h3>` in its `<summary>`:
 * it works with JavaScript off and before the page hydrates, by mouse, touch and keyboard, and screen
 * readers move through the questions by heading. Once React runs, the Radix accordion takes over, but
 * only at a moment when no tap, click or key press is under way (`whenUntouched`), and in a transition:
 * React renders it in slices, so a tap or key meanwhile is handled at once (by the native accordion,
 * still on screen). Before the browser paints the Radix accordion, it takes the state the visitor left
 * at that very moment (the open item; the focused question keeps focus), in the same boxes with the
 * same styles, so nothing moves and no tap is lost (decisions 011, 016).
 */
export function Faq() {
  // null: still the native accordion (server render, hydration, and until the take-over).
  const [open, setOpen] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  // What the native accordion shows right now, and which question has focus: kept up to date while
  // the take-over renders, and applied before the Radix accordion is painted.
  const live = useRef({ open: "", focused: "", applied: false });

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const readOpen = () => (live.current.open = list.querySelector<HTMLElement>("details[open]")?.dataset.value ?? "");
    const readFocus = () =>
      (live.current.focused =
        document.activeElement instanceof HTMLElement && list.contains(document.activeElement) ? document.activeElement.id : "");
    readOpen();
    readFocus();
    const observer = new MutationObserver(readOpen);
    observer.observe(list, { subtree: true, attributes: true, attributeFilter: ["open"] });
    list.addEventListener("focusin", readFocus);
    list.addEventListener("focusout", () => setTimeout(readFocus));
    // Read again at the take-over: focus may have moved while the page's input was kept from
    // React's listeners (and this one) during hydration (app/hydration/guard-input-from-react.ts).
    const cancel = whenUntouched(() => {
      readOpen();
      readFocus();
      startTransition(() => setOpen(live.current.open));
    });
    return () => {
      cancel();
      observer.disconnect();
    };
  }, []);

  // The Radix accordion is committed: before paint, the latest native state, and focus where it was.
  useBeforePaint(() => {
    if (open === null || live.current.applied) return;
    live.current.applied = true;
    if (live.current.open !== open) setOpen(live.current.open);
    if (live.current.focused) document.getElementById(live.current.focused)?.focus();
  }, [open]);

  return (
    <Section name="faq" heading={faqSection.heading}>
      {open === null ? (
        <div ref={listRef} className={styles.list}>
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
      ) : (
        <Accordion.Root type="single" collapsible value={open} onValueChange={setOpen} className={styles.list}>
          {radixItems}
        </Accordion.Root>
      )}
    </Section>
  );
}
