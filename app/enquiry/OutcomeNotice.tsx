import { fill, formNotices, toasts } from "~/content";
import * as styles from "./ContactForm.css";
import type { FormOutcome } from "./outcome";

/** The spec's failure text with the studio's address as a mailto link in place of {email}. */
export function FailureText({ studioEmail }: { studioEmail: string }) {
  const [before, after] = toasts.failure.text.split("{email}");
  return (
    <>
      {before}
      <a href={`mailto:${studioEmail}`}>{studioEmail}</a>
      {after}
    </>
  );
}

/**
 * The outcome of a post made without JavaScript, where toasts cannot appear, shown in the form: the
 * spec's words where it has them (success, missing fields, failure), our own for the rest.
 */
export function OutcomeNotice({ outcome, studioEmail }: { outcome: FormOutcome; studioEmail: string }) {
  if (outcome.status === "ok") {
    return (
      <div className={styles.notice.success} role="status">
        <p className={styles.noticeTitle}>{toasts.success.title}</p>
        <p>{toasts.success.text}</p>
      </div>
    );
  }
  const [title, text] = noticeText(outcome, studioEmail);
  return (
    <div className={styles.notice.destructive} role="alert" data-outcome={outcome.status}>
      <p className={styles.noticeTitle}>{title}</p>
      <p>{text}</p>
    </div>
  );
}

function noticeText(outcome: Exclude<FormOutcome, { status: "ok" }>, studioEmail: string): [string, React.ReactNode] {
  switch (outcome.status) {
    case "missing":
      return [toasts.missingFields.title, toasts.missingFields.text];
    case "invalid":
      return [formNotices.invalid.title, formNotices.invalid.text];
    case "too-fast":
      return [formNotices.tooFast.title, formNotices.tooFast.text];
    case "rate-limited": {
      const minutes = String(Math.max(1, Math.ceil(outcome.retryAfterSeconds / 60)));
      return [fill(formNotices.rateLimited.title, { minutes }), formNotices.rateLimited.text];
    }
    case "refused":
      return [formNotices.refused.title, formNotices.refused.text];
    case "failed":
      return [toasts.failure.title, <FailureText key="failure" studioEmail={studioEmail} />];
  }
}
