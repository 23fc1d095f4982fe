import { useEffect, useId, useRef, useState, type FormEvent } from "react";
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
import { INTENT_ATTRIBUTE } from "~/hydration/inline-script-loader";
import { whenUntouched } from "~/hydration/run-when-untouched";
import { useSendHandOver } from "~/hydration/use-send-hand-over";
import { button } from "~/styles/button.css";
import { visuallyHidden } from "~/styles/utilities.css";
import { dismissSuccessToast, preloadToasts, showToast, TOAST_DURATION_MS, type Tone } from "~/toasts/Toasts";
import { RESUME_GLOBAL } from "./attempt-record";
import * as styles from "./ContactForm.css";
import { DRAFT_ATTRIBUTE, DRAFT_POSTED_EVENT } from "./form-draft.inline";
import type { FormOutcome } from "./outcome";
import { FailureText, OutcomeNotice } from "./OutcomeNotice";
import { beginAttempt, settleAttempt, successSeen, unfinishedAttempt, watchLeaving } from "./send-attempt.client";
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

/**
 * The booking form (spec points 4, 5 and 8). Its fields are the browser's own (uncontrolled): what a
 * visitor types before, during or after hydration is in the field and stays there, and typing costs
 * no React work. The form reads them when it is sent. Without JavaScript it posts to the route's
 * action, which answers with an outcome shown here.
 */
export function ContactForm({ studioEmail, publicEnv, outcome }: Props) {
  const id = useId();
  const fieldId = (field: ContactField) => `${id}-${field}`;
  const errorId = (field: ContactField) => `${id}-${field}-error`;
  const formRef = useRef<HTMLFormElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);

  // What the fields start with. When React takes over a page whose fields a visitor has already typed
  // into, the typed text is what the fields hold: React then writes nothing over it.
  const [initial] = useState<ContactMessage>(() => {
    const kept = outcome && "values" in outcome ? outcome.values : EMPTY;
    if (typeof document === "undefined") return kept;
    const live = (field: ContactField) => document.getElementById(fieldId(field)) as HTMLInputElement | HTMLTextAreaElement | null;
    return Object.fromEntries(CONTACT_FIELDS.map((f) => [f, live(f)?.value ?? kept[f]])) as ContactMessage;
  });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>(outcome?.status === "invalid" ? outcome.fieldErrors : {});
  // A Send pressed before this form hydrated already shows "Sending...": the form hydrates in that
  // state and sends it, as every Send until React hears the visitor (decision 019).
  const sentBeforeHydration = useSendHandOver(
    () => {
      warmUp();
      if (formRef.current) void send.current(formRef.current);
    },
    () => setSending(false),
  );
  const [sending, setSending] = useState(sentBeforeHydration);
  // Where a toast cannot appear (its code failed to load), the message shows in the form instead.
  const [inline, setInline] = useState<{ tone: Tone; title: string; text: React.ReactNode } | null>(null);
  const notify = (tone: Tone, title: string, text: React.ReactNode, plainText: string) => {
    setInline(null);
    void showToast(tone, title, text, plainText, formRef.current).then((shown) => shown || setInline({ tone, title, text }));
  };
  // State lags a render behind: a double click's second submit must see the first at once.
  const inFlight = useRef(false);
  // Sends the form (what Send does): the latest render's, also for a Send handed over from before hydration.
  const send = useRef(async (_form: HTMLFormElement) => {});
  // supabase-js and the toast code, fetched and run before the visitor sends, but not while they
  // type: at the first pause (a second without a key or tap), so evaluating them never delays a keystroke.
  const warmedUp = useRef(false);
  const warmUp = () => {
    if (warmedUp.current) return;
    warmedUp.current = true;
    whenUntouched(
      () => {
        preloadToasts();
        void preloadSupabase(publicEnv).catch(() => undefined);
      },
      { settleMs: 1000 },
    );
  };

  const fieldsOf = (form: HTMLFormElement) =>
    CONTACT_FIELDS.map((f) => form.elements.namedItem(f) as HTMLInputElement | HTMLTextAreaElement);
  const messageOf = (form: HTMLFormElement) =>
    Object.fromEntries(fieldsOf(form).map((control) => [control.name, control.value.trim()])) as ContactMessage;
  const focusField = (field: ContactField | undefined) => {
    if (field) formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(field))}`)?.focus();
  };

  useEffect(() => {
    // The page hydrates when the visitor starts on this form (decision 016): usually a focus in it.
    if (formRef.current?.contains(document.activeElement)) warmUp();
    // Without JavaScript the action's field errors arrive with the page: put focus on the first one.
    if (outcome?.status === "invalid") focusField(firstInvalidField(outcome.fieldErrors));
    // Back (or Forward, or a reload) to a page whose Send was unfinished when it was left: the draft
    // script said so and asked for the scripts (form-draft.inline.ts). Say what became of it.
    const form = formRef.current;
    if (form && RESUME_GLOBAL in window) {
      Reflect.deleteProperty(window, RESUME_GLOBAL);
      const unfinished = unfinishedAttempt(messageOf(form));
      if (unfinished === "sent") showSuccess();
      else if (unfinished === "sending") void send.current(form);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the form mounts
  }, []);

  // Shown again from the back/forward cache with a success not yet seen to its end: its toast may be
  // gone meanwhile (the browser ran its timer, or dropped it): it shows again (the same toast, by id).
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => {
      if (event.persisted && formRef.current && unfinishedAttempt(messageOf(formRef.current)) === "sent") showSuccess();
    };
    addEventListener("pageshow", shown);
    return () => removeEventListener("pageshow", shown);
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
    setTimeout(successSeen, TOAST_DURATION_MS.success);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void send.current(event.currentTarget);
  };

  send.current = async (form: HTMLFormElement) => {
    if (inFlight.current) return; // a second click while sending does nothing
    const message = messageOf(form);
    if (!hasRequiredFields(message)) {
      // A Send handed over from before hydration may show "Sending..." (a value changed since it was
      // pressed): the form is the visitor's again.
      settle();
      notify("destructive", toasts.missingFields.title, toasts.missingFields.text, toasts.missingFields.text);
      return;
    }
    const trap = (form.elements.namedItem(FORM_META_FIELDS.trap) as HTMLInputElement | null)?.value ?? "";

    inFlight.current = true;
    setSending(true);
    const leaving = watchLeaving();
    const answer = await Promise.race([
      sendEnquiry(publicEnv, message, {
        // The same values, the same key: a second Send, or one after Back, is stored once (send-attempt.client.ts).
        idempotencyKey: beginAttempt(message),
        // Time since the page started loading: hydration may have come much later than the visitor.
        fillMs: performance.now(),
        trap,
      }),
      leaving.back,
    ]);
    if (!answer) {
      // Left and shown again from the back/forward cache while the call was on its way: the call may
      // never settle now (WebKit). The same values go again with the same key: stored once either way.
      leaving.stop();
      inFlight.current = false;
      return send.current(form);
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
      // go again with the same key: stored once either way, and the page then says which (issue 34).
      inFlight.current = false;
      return send.current(form);
    }
    leaving.stop();
    if (clientUnavailable && navigator.onLine) {
      // supabase-js could not load, but the network is there: the form posts as it does without
      // JavaScript (the browser's own submit, which skips this handler), and the server sends it.
      console.error("Error loading the enquiry client; posting the form instead:", error);
      settleAttempt("settled"); // the post's answer is the page that says what became of it
      form.dispatchEvent(new Event(DRAFT_POSTED_EVENT, { bubbles: true }));
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
      for (const control of fieldsOf(form)) control.value = control.defaultValue = "";
      // Values set by script fire no input event: this one tells the draft kept for Back
      // (form-draft.inline.ts) that the form is empty now. (Not form.reset(): it would make the fields
      // follow the defaultValue React writes again on its next render, the text just sent.)
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

  // Each field as its contract entry says (FIELDS): required or optional, one line or many, its autocomplete and type.
  const field = (name: ContactField) => {
    const error = fieldErrors[name];
    const { required, lines, autocomplete, inputType } = FIELD_SPECS[name];
    const common = {
      id: fieldId(name),
      name,
      defaultValue: initial[name],
      onInput: (e: { currentTarget: { value: string } }) => checkLength(name, e.currentTarget.value),
      readOnly: sending,
      required,
      placeholder: contactForm.placeholders[name],
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? errorId(name) : undefined,
      className: styles.control,
    };
    return (
      <div key={name} className={styles.field}>
        <label htmlFor={fieldId(name)} className={styles.label}>
          {contactForm.labels[name]}
          {required ? null : <span className={styles.optional}> {contactForm.optional}</span>}
        </label>
        {lines === "many" ? (
          <textarea {...common} rows={5} autoComplete={autocomplete} />
        ) : (
          <input {...common} type={inputType} autoComplete={autocomplete} />
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
        warmUp();
        // Back in a field after sending: the success toast has been seen, and goes.
        if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) {
          dismissSuccessToast();
          successSeen();
        }
      }}
      aria-busy={sending}
      // The page's scripts load when the visitor starts on this form, and only then (decision 016).
      // What the visitor typed is kept when they leave the page, and there again when they come Back
      // (form-draft.inline.ts, inlined by the document pipeline).
      {...{ [INTENT_ATTRIBUTE]: "", [DRAFT_ATTRIBUTE]: "" }}
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
        <label htmlFor={`${id}-trap`}>Leave this field empty</label>
        <input id={`${id}-trap`} type="text" name={FORM_META_FIELDS.trap} tabIndex={-1} autoComplete="off" defaultValue="" />
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
      {/* A Send pressed just as this button hydrates may have changed its text (inline-send-before-hydration.ts):
          React then writes its own text instead of failing the part (framework-assumptions.ts). */}
      <button ref={submitRef} type="submit" className={`${button.primary} ${styles.submit}`} disabled={sending} suppressHydrationWarning>
        {sending ? contactForm.sending : contactForm.submit}
      </button>
      <p className={styles.privacy}>{contactForm.privacy}</p>
    </form>
  );
}
