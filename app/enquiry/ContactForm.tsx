import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { contactForm, fill, formNotices, toasts } from "~/content";
import { button } from "~/styles/button.css";
import { visuallyHidden } from "~/styles/utilities.css";
import type { PublicEnv } from "~/config";
import { preloadSupabase, sendEnquiry } from "./send.client";
import {
  characterCount,
  CONTACT_FIELDS,
  FIELD_LIMITS,
  FORM_META_FIELDS,
  firstInvalidField,
  hasRequiredFields,
  tooLongMessage,
  type ContactField,
  type ContactMessage,
  type FieldErrors,
} from "../../supabase/functions/_shared/contact-message.ts";
import { preloadToasts, showToast, type Tone } from "~/components/Toasts";
import * as styles from "./ContactForm.css";
import type { FormOutcome } from "./outcome";

type Props = {
  studioEmail: string;
  publicEnv: PublicEnv;
  outcome?: FormOutcome;
};

const EMPTY: ContactMessage = { name: "", email: "", projectTitle: "", projectDetails: "" };

function valuesIn(form: HTMLFormElement): ContactMessage {
  const value = (field: ContactField) => {
    const control = form.elements.namedItem(field);
    return control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement ? control.value : "";
  };
  return Object.fromEntries(CONTACT_FIELDS.map((field) => [field, value(field)])) as ContactMessage;
}

function newKey() {
  return crypto.randomUUID();
}

export function ContactForm({ studioEmail, publicEnv, outcome }: Props) {
  const id = useId();
  const fieldId = (field: ContactField) => `${id}-${field}`;
  const errorId = (field: ContactField) => `${id}-${field}-error`;

  const [values, setValues] = useState<ContactMessage>(outcome && "values" in outcome ? outcome.values : EMPTY);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>(outcome?.status === "invalid" ? outcome.fieldErrors : {});
  const [sending, setSending] = useState(false);
  // Where a toast cannot appear (its code failed to load), the message shows in the form instead.
  const [inline, setInline] = useState<{ tone: Tone; title: string; text: React.ReactNode } | null>(null);
  const notify = (tone: Tone, title: string, text: React.ReactNode, plainText: string) => {
    setInline(null);
    void showToast(tone, title, text, plainText).then((shown) => shown || setInline({ tone, title, text }));
  };
  // State lags a render behind: a double click's second submit must see the first at once.
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  // One key per distinct message, made in the browser (the page is the same for everyone): a retry
  // of the same values reuses it (the function stores it once), edited values after a failure get
  // a new one, and a success renews it.
  const attempt = useRef({ key: "", values: "" });
  const warmUp = () => {
    preloadToasts();
    void preloadSupabase(publicEnv).catch(() => undefined);
  };

  // The page hydrates on the visitor's first intent (decision 008), often a focus in this form:
  // what was typed before React took over is in the fields but not in state, so take it from there.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const typed = valuesIn(form);
    if (CONTACT_FIELDS.some((f) => typed[f] !== values[f])) setValues(typed);
    if (form.contains(document.activeElement)) warmUp();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const focusField = (field: ContactField | undefined) => {
    if (field) formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(field))}`)?.focus();
  };

  // Without JavaScript the action's field errors arrive with the page: put focus on the first one.
  useEffect(() => {
    if (outcome?.status === "invalid") focusField(firstInvalidField(outcome.fieldErrors));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const failureText = <FailureText studioEmail={studioEmail} />;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return; // a second click while sending does nothing
    const form = new FormData(event.currentTarget);
    if (!hasRequiredFields(values)) {
      notify("destructive", toasts.missingFields.title, toasts.missingFields.text, toasts.missingFields.text);
      return;
    }
    const message = Object.fromEntries(CONTACT_FIELDS.map((f) => [f, values[f].trim()])) as ContactMessage;
    const snapshot = JSON.stringify(message);
    if (!attempt.current.key || attempt.current.values !== snapshot) attempt.current.key = newKey();
    attempt.current.values = snapshot;

    inFlight.current = true;
    setSending(true);
    const result = await sendEnquiry(publicEnv, message, {
      idempotencyKey: attempt.current.key,
      // Time since the page started loading: hydration may have come much later than the visitor.
      fillMs: performance.now(),
      trap: String(form.get(FORM_META_FIELDS.trap) ?? ""),
    });
    inFlight.current = false;
    setSending(false);
    // The disabled button lost focus; give it back so keyboard users stay in the form.
    if (document.activeElement === document.body) submitRef.current?.focus();

    if (result.status === "ok") {
      setValues(EMPTY);
      setFieldErrors({});
      attempt.current = { key: "", values: "" };
      notify("success", toasts.success.title, toasts.success.text, toasts.success.text);
      return;
    }
    if (result.status === "invalid") {
      setFieldErrors(result.fieldErrors);
      focusField(firstInvalidField(result.fieldErrors));
    } else {
      console.error("Error sending contact message:", result.error);
    }
    notify("destructive", toasts.failure.title, failureText, fill(toasts.failure.text, { email: studioEmail }));
  };

  const update = (field: ContactField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    // Lengths count characters a person sees (code points), as the contract and the database do; the
    // maxlength attribute would count UTF-16 units (an emoji twice), so the limit is shown as it is passed.
    if (characterCount(value.trim()) > FIELD_LIMITS[field]) setFieldErrors((current) => ({ ...current, [field]: tooLongMessage(field) }));
    else if (fieldErrors[field]) setFieldErrors(({ [field]: _, ...rest }) => rest);
  };

  const field = (name: ContactField, kind: "input" | "textarea" = "input") => {
    const error = fieldErrors[name];
    const required = name !== "projectDetails";
    const common = {
      id: fieldId(name),
      name,
      value: values[name],
      onChange: (e: { target: { value: string } }) => update(name, e.target.value),
      readOnly: sending,
      required,
      placeholder: contactForm.placeholders[name],
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? errorId(name) : undefined,
      className: styles.control,
    };
    return (
      <div className={styles.field}>
        <label htmlFor={fieldId(name)} className={styles.label}>
          {contactForm.labels[name]}
          {required ? null : <span className={styles.optional}> {contactForm.optional}</span>}
        </label>
        {kind === "textarea" ? (
          <textarea {...common} rows={5} />
        ) : (
          <input {...common} type={name === "email" ? "email" : "text"} autoComplete={autoComplete[name]} />
        )}
        {error ? (
          <p id={errorId(name)} className={styles.error}>
            {error}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <form
      ref={formRef}
      method="post"
      action="/?index#contact"
      className={styles.form}
      onSubmit={onSubmit}
      onFocus={warmUp}
      aria-busy={sending}
    >
      {outcome ? <NoScriptOutcome outcome={outcome} studioEmail={studioEmail} /> : null}
      {inline ? (
        <div className={styles.notice[inline.tone]} data-inline-tone={inline.tone}>
          <p className={styles.noticeTitle}>{inline.title}</p>
          <p>{inline.text}</p>
        </div>
      ) : null}
      {/* Honeypot: hidden from people and assistive technology, filled in by naive bots. */}
      <div className={visuallyHidden} aria-hidden="true">
        <label htmlFor={`${id}-trap`}>Leave this field empty</label>
        <input id={`${id}-trap`} type="text" name={FORM_META_FIELDS.trap} tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <div className={styles.row}>
        {field("name")}
        {field("email")}
      </div>
      {field("projectTitle")}
      {field("projectDetails", "textarea")}
      <button ref={submitRef} type="submit" className={`${button.primary} ${styles.submit}`} disabled={sending}>
        {sending ? contactForm.sending : contactForm.submit}
      </button>
    </form>
  );
}

const autoComplete: Record<ContactField, string> = {
  name: "name",
  email: "email",
  projectTitle: "off",
  projectDetails: "off",
};

/** The spec's failure text with the studio's address as a mailto link in place of {email}. */
function FailureText({ studioEmail }: { studioEmail: string }) {
  const [before, after] = toasts.failure.text.split("{email}");
  return (
    <>
      {before}
      <a href={`mailto:${studioEmail}`}>{studioEmail}</a>
      {after}
    </>
  );
}

/** The outcome of a post made without JavaScript, where toasts cannot appear: the spec's words where it has them. */
function NoScriptOutcome({ outcome, studioEmail }: { outcome: FormOutcome; studioEmail: string }) {
  if (outcome.status === "ok") {
    return (
      <div className={styles.notice.success} role="status">
        <p className={styles.noticeTitle}>{toasts.success.title}</p>
        <p>{toasts.success.text}</p>
      </div>
    );
  }
  const [title, text]: [string, React.ReactNode] =
    outcome.status === "missing"
      ? [toasts.missingFields.title, toasts.missingFields.text]
      : outcome.status === "invalid"
        ? [formNotices.invalid.title, formNotices.invalid.text]
        : outcome.status === "too-fast"
          ? [formNotices.tooFast.title, formNotices.tooFast.text]
          : outcome.status === "rate-limited"
            ? [fill(formNotices.rateLimited.title, { minutes: String(Math.max(1, Math.ceil(outcome.retryAfterSeconds / 60))) }), formNotices.rateLimited.text]
            : outcome.status === "refused"
              ? [formNotices.refused.title, formNotices.refused.text]
              : [toasts.failure.title, <FailureText key="failure" studioEmail={studioEmail} />];
  return (
    <div className={styles.notice.destructive} role="alert" data-outcome={outcome.status}>
      <p className={styles.noticeTitle}>{title}</p>
      <p>{text}</p>
    </div>
  );
}
