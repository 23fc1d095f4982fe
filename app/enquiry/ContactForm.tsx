import { useEffect, useRef, useState, type FormEvent } from "react";
import {
  characterCount,
  CONTACT_FIELDS,
  emptyMessage,
  FIELD_LIMITS,
  FIELD_SPECS,
  FORM_META_FIELDS,
  firstInvalidField,
  hasRequiredFields,
  tooLongMessage,
  type ContactField,
  type ContactMessage,
  type FieldErrors,
} from "#shared/contact-message.ts";
import type { PublicEnv } from "~/config.types";
import { contactForm, fill, toasts } from "~/content";
import { button } from "~/styles/button.css";
import { visuallyHidden } from "~/styles/utilities.css";
import { dismissSuccessToast, preloadToasts, showToast, TOAST_DURATION_MS, type Tone } from "~/toasts/Toasts";
import * as styles from "./ContactForm.css";
import { FORM_ATTRIBUTE, formLayerOffer } from "./form-layer.inline";
import type { FormOutcome } from "./outcome";
import { FailureText, OutcomeNotice } from "./OutcomeNotice";
import { afterSuccessToast, beginAttempt, settleAttempt, successSeen, unfinishedAttempt, watchLeaving } from "./send-attempt.client";
import { preloadSupabase, sendEnquiry } from "./send.client";

type Props = {
  studioEmail: string;
  publicEnv: PublicEnv;
  /** The outcome of a post made without JavaScript (the route's action), shown in the form. */
  outcome?: FormOutcome;
};

const EMPTY: ContactMessage = emptyMessage();

/** The fields shown side by side (where the width allows); every other field has a line of its own. */
const SIDE_BY_SIDE: readonly ContactField[] = ["name", "email"];

/** How long after the page is shown again a focus is still the browser's restoring it, not the visitor's. */
const RESTORE_MS = 1_000;

/** Each control's id: one booking form per page, so the same on the server and in the island. */
const fieldId = (field: ContactField) => `contact-${field}`;
const errorId = (field: ContactField) => `contact-${field}-error`;

/** A field's label and placeholder from app/content.ts, or, for a field the content does not name yet, the contract's label. */
const labelOf = (field: ContactField) => (contactForm.labels as Partial<Record<string, string>>)[field] ?? FIELD_SPECS[field].label;
const placeholderOf = (field: ContactField) => (contactForm.placeholders as Partial<Record<string, string>>)[field] ?? "";

/** The message as the form holds it: every field of the contract, read through FormData. */
const messageOf = (data: FormData) =>
  Object.fromEntries(CONTACT_FIELDS.map((f) => [f, String(data.get(f) ?? "").trim()])) as ContactMessage;

/**
 * The booking form, the page's one island (decision 030). Its fields are the browser's own
 * (uncontrolled): what a visitor types before, during or after the island hydrates stays in the field,
 * and typing costs no React work; a Send reads them with FormData. Without JavaScript it posts to the
 * route's action, which answers with an outcome shown here. Before the island is ready the page's
 * inline layer (form-layer.inline.ts) keeps the spec's states and hands a Send over.
 */
export function ContactForm({ studioEmail, publicEnv, outcome }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);

  // What the fields start with: the values a post without JavaScript kept; in the island, what the
  // fields hold as it hydrates (React then writes nothing over what was typed).
  const [initial] = useState<ContactMessage>(() => {
    const kept = outcome && "values" in outcome ? outcome.values : EMPTY;
    if (typeof document === "undefined") return kept;
    const live = (field: ContactField) => (document.getElementById(fieldId(field)) as HTMLInputElement | null)?.value;
    return Object.fromEntries(CONTACT_FIELDS.map((f) => [f, live(f) ?? kept[f]])) as ContactMessage;
  });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>(outcome?.status === "invalid" ? outcome.fieldErrors : {});
  // A Send pressed before the island was ready already shows "Sending...": the island hydrates in that state.
  const [sending, setSending] = useState(() => formLayerOffer()?.sending() ?? false);
  // Where a toast cannot appear (its code failed to load), the message shows in the form instead.
  const [inline, setInline] = useState<{ tone: Tone; title: string; text: React.ReactNode } | null>(null);
  const notify = (tone: Tone, title: string, text: React.ReactNode, plainText: string) => {
    setInline(null);
    void showToast(tone, title, text, plainText, formRef.current).then((shown) => shown || setInline({ tone, title, text }));
  };
  // State lags a render behind: a double click's second submit must see the first at once.
  const inFlight = useRef(false);
  // Sends the values (what Send does): the latest render's, also for a Send handed over by the layer.
  const send = useRef(async (_data: FormData) => {});

  const focusField = (field: ContactField | undefined) => {
    if (field) document.getElementById(fieldId(field))?.focus();
  };

  useEffect(() => {
    const form = formRef.current;
    // supabase-js and the toast code, fetched and run once the browser is idle, before the visitor sends.
    const warmUp = () => {
      preloadToasts();
      void preloadSupabase(publicEnv).catch(() => undefined);
    };
    const idle = "requestIdleCallback" in window ? requestIdleCallback(warmUp, { timeout: 2000 }) : setTimeout(warmUp, 200);
    // Without JavaScript the action's field errors arrive with the page: put focus on the first one.
    if (outcome?.status === "invalid") focusField(firstInvalidField(outcome.fieldErrors));
    // The island has the form now: a Send pressed before goes with the values it was pressed with.
    const handed = formLayerOffer()?.ready();
    if (handed?.waiting) void send.current(handed.waiting);
    else if (sending) setSending(false); // dropped as the visitor left: the form is theirs again
    // Back (or Forward, or a reload) to a page whose Send was unfinished when it was left: say what became of it.
    if (handed?.resume && form) {
      const unfinished = unfinishedAttempt(messageOf(new FormData(form)));
      if (unfinished === "sent") showSuccess();
      else if (unfinished === "sending") void send.current(new FormData(form));
    }
    return () => ("requestIdleCallback" in window ? cancelIdleCallback(idle as number) : clearTimeout(idle));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the island mounts
  }, []);

  // Shown again from the back/forward cache with a success not yet seen to its end: its toast may be
  // gone meanwhile (the browser ran its timer, or dropped it): it shows again (the same toast, by id).
  // From the moment the page is left until a moment after it is shown again, a focus is the browser's
  // (Firefox gives the field that had focus its focus back as it restores the page), not the visitor
  // coming back to a field: it sees no toast.
  const away = useRef(false);
  useEffect(() => {
    let back: ReturnType<typeof setTimeout> | undefined;
    const hidden = () => {
      clearTimeout(back);
      away.current = true;
    };
    const shown = (event: PageTransitionEvent) => {
      back = setTimeout(() => (away.current = false), RESTORE_MS);
      if (event.persisted && formRef.current && unfinishedAttempt(messageOf(new FormData(formRef.current))) === "sent") showSuccess();
    };
    addEventListener("pagehide", hidden);
    addEventListener("pageshow", shown);
    return () => {
      clearTimeout(back);
      removeEventListener("pagehide", hidden);
      removeEventListener("pageshow", shown);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- showSuccess reads nothing from a render
  }, []);

  /**
   * The form is the visitor's again: not sending, and (once that has rendered and the button is enabled
   * again) the focus the disabled button lost given back, so keyboard users stay in the form.
   */
  const refocus = useRef(false);
  const settle = () => {
    refocus.current = true;
    setSending(false);
  };
  useEffect(() => {
    if (sending || !refocus.current) return;
    refocus.current = false;
    if (document.activeElement === document.body) submitRef.current?.focus();
  }, [sending]);

  /**
   * The spec's success toast. Until it has been seen to its end (or the visitor is back in a field), a
   * page left and come Back to shows it again (attempt-record.ts).
   */
  const showSuccess = () => {
    notify("success", toasts.success.title, toasts.success.text, toasts.success.text);
    afterSuccessToast(TOAST_DURATION_MS.success);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void send.current(new FormData(event.currentTarget));
  };

  send.current = async (data: FormData) => {
    const form = formRef.current;
    if (inFlight.current || !form) return; // a second click while sending does nothing
    const message = messageOf(data);
    if (!hasRequiredFields(message)) {
      // A Send handed over by the layer may show "Sending..." (a blank it could not see): the form is the visitor's again.
      settle();
      notify("destructive", toasts.missingFields.title, toasts.missingFields.text, toasts.missingFields.text);
      return;
    }

    inFlight.current = true;
    setSending(true);
    const leaving = watchLeaving();
    const answer = await Promise.race([
      sendEnquiry(publicEnv, message, {
        // The same values, the same key: a second Send, or one after Back, is stored once (send-attempt.client.ts).
        idempotencyKey: beginAttempt(message),
        // Time since the page started loading: the island may have come much later than the visitor.
        fillMs: performance.now(),
        trap: String(data.get(FORM_META_FIELDS.trap) ?? ""),
      }),
      leaving.back,
    ]);
    if (!answer) {
      // Left and shown again from the back/forward cache while the call was on its way: the call may
      // never settle now (WebKit). The same values go again with the same key: stored once either way.
      leaving.stop();
      inFlight.current = false;
      return send.current(data);
    }
    const { outcome: sent, error, clientUnavailable, httpStatus } = answer;
    if (
      (clientUnavailable || sent.status === "failed") &&
      // supabase-js that could not load counts as cut off too: WebKit cancels a module's download as a
      // navigation away begins, before any event says so (a post then would race the visitor's navigation).
      (await leaving.cutOff(httpStatus !== undefined)) === "back"
    ) {
      // Cut off by the visitor leaving the page: whether it arrived is unknown, and it is not a failure
      // to show them. Now that they are Back on this page (from the back/forward cache), the same values
      // go again with the same key: stored once either way, and the page then says which (decision 029).
      inFlight.current = false;
      return send.current(data);
    }
    leaving.stop();
    if (clientUnavailable && navigator.onLine) {
      // supabase-js could not load, but the network is there: the form posts as it does without
      // JavaScript (the browser's own submit, which skips this handler), and the server sends it.
      console.error("Error loading the enquiry client; posting the form instead:", error);
      settleAttempt("settled"); // the post's answer is the page that says what became of it
      formLayerOffer()?.forget();
      // A post the visitor left before its answer, and the page shown again from the back/forward
      // cache: the form is theirs again, never "Sending..." for a post that went elsewhere.
      addEventListener(
        "pageshow",
        (event) => {
          if (!event.persisted) return;
          inFlight.current = false;
          settle();
        },
        { once: true },
      );
      form.submit();
      return;
    }
    inFlight.current = false;
    settle();

    if (sent.status === "ok") {
      clearForm(form);
      // Values set by script fire no input event: this one tells the draft kept for Back
      // (form-layer.inline.ts) that the form is empty now.
      form.dispatchEvent(new Event("input", { bubbles: true }));
      setFieldErrors({});
      settleAttempt("sent");
      showSuccess();
      return;
    }
    settleAttempt("settled");
    if (sent.status === "invalid") {
      setFieldErrors(sent.fieldErrors);
      focusField(firstInvalidField(sent.fieldErrors));
    } else {
      console.error("Error sending contact message:", error ?? sent.status);
    }
    notify(
      "destructive",
      toasts.failure.title,
      <FailureText studioEmail={studioEmail} />,
      fill(toasts.failure.text, { email: studioEmail }),
    );
  };

  // Lengths count characters a person sees (code points), as the contract and the database do; the
  // maxlength attribute would count UTF-16 units (an emoji twice), so the limit is shown as it is passed.
  const checkLength = (field: ContactField, value: string) => {
    const tooLong = characterCount(value.trim()) > FIELD_LIMITS[field];
    if (tooLong && !fieldErrors[field]) setFieldErrors((current) => ({ ...current, [field]: tooLongMessage(field) }));
    else if (!tooLong && fieldErrors[field]) setFieldErrors(({ [field]: _, ...rest }) => rest);
  };

  // Each field as its contract entry says (FIELDS): required or optional, one line, many, or a choice; its autocomplete and type.
  const field = (name: ContactField) => {
    const error = fieldErrors[name];
    const { required, lines, autocomplete, inputType, options } = FIELD_SPECS[name];
    const common = {
      id: fieldId(name),
      name,
      defaultValue: initial[name],
      required,
      autoComplete: autocomplete,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? errorId(name) : undefined,
      className: styles.control,
    };
    const typed = {
      ...common,
      // What is being sent stays as it is shown (a select has no read-only state).
      readOnly: sending,
      placeholder: placeholderOf(name),
      onInput: (e: { currentTarget: { value: string } }) => checkLength(name, e.currentTarget.value),
    };
    return (
      <div key={name} className={styles.field}>
        <label htmlFor={fieldId(name)} className={styles.label}>
          {labelOf(name)}
          {required ? null : <span className={styles.optional}> {contactForm.optional}</span>}
        </label>
        {options ? (
          <select {...common}>
            <option value="">{placeholderOf(name)}</option>
            {options.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        ) : lines === "many" ? (
          <textarea {...typed} rows={5} />
        ) : (
          <input {...typed} type={inputType} />
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
      onFocus={(event) => {
        // Back in a field after sending: the success toast has been seen, and goes.
        if ((event.target as Element) !== submitRef.current && !away.current) {
          dismissSuccessToast();
          successSeen();
        }
      }}
      aria-busy={sending}
      // The island loads when the visitor starts on this form; what they typed is kept for Back (form-layer.inline.ts).
      {...{ [FORM_ATTRIBUTE]: "" }}
    >
      {outcome ? <OutcomeNotice outcome={outcome} studioEmail={studioEmail} /> : null}
      {inline ? (
        <div className={styles.notice[inline.tone]} data-inline-tone={inline.tone}>
          <p className={styles.noticeTitle}>{inline.title}</p>
          <p>{inline.text}</p>
        </div>
      ) : null}
      {/* Honeypot: hidden from people and assistive technology, filled in by naive bots. */}
      <div className={visuallyHidden} aria-hidden="true">
        <label htmlFor="contact-trap">Leave this field empty</label>
        <input id="contact-trap" type="text" name={FORM_META_FIELDS.trap} tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      {CONTACT_FIELDS.map((name) =>
        !SIDE_BY_SIDE.includes(name) ? (
          field(name)
        ) : name === SIDE_BY_SIDE[0] ? (
          <div key={name} className={styles.row}>
            {SIDE_BY_SIDE.map(field)}
          </div>
        ) : null,
      )}
      <button ref={submitRef} type="submit" className={`${button.primary} ${styles.submit}`} disabled={sending}>
        {sending ? contactForm.sending : contactForm.submit}
      </button>
      <p className={styles.privacy}>{contactForm.privacy}</p>
    </form>
  );
}

/** The form emptied after a success: every control of the message back to blank, its default too (Back brings nothing back). */
function clearForm(form: HTMLFormElement) {
  for (const name of CONTACT_FIELDS) {
    const control = form.elements.namedItem(name);
    if (control instanceof HTMLSelectElement)
      for (const option of control.options) option.selected = option.defaultSelected = option.value === "";
    else if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) control.value = control.defaultValue = "";
  }
}
