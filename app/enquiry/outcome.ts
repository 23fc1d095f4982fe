/**
 * The enquiry's one vocabulary: what the form tells the visitor after a send. Both paths use it: the
 * browser (send.client.ts, with supabase-js) and the no-JavaScript action (action.server.ts, with the
 * same functions client). `outcomeOfInvoke` is the one place where the function's answer becomes an
 * outcome. The browser shows the spec's toasts (ok, and "Something went wrong" for everything else,
 * with field errors beside their fields); the no-JS page gives each outcome its own notice.
 */
import type { ContactMessage, EnquiryResult, FieldErrors } from "#shared/contact-message.ts";

export type FormOutcome =
  /** Stored: the form is cleared and the spec's success text shows. */
  | { status: "ok" }
  /** A required field is blank: the spec's "Please fill in all required fields". */
  | { status: "missing"; values: ContactMessage }
  /** Fields the contract refuses, each with its own message beside it. */
  | { status: "invalid"; values: ContactMessage; fieldErrors: FieldErrors }
  /** Sent faster than a person could: not a failure, send again. */
  | { status: "too-fast"; values: ContactMessage }
  /** Over the sender's limit: when to try again. */
  | { status: "rate-limited"; values: ContactMessage; retryAfterSeconds: number }
  /** The post itself could not be read (wrong type, empty, too large, another site's): fill it in again. */
  | { status: "refused"; values: ContactMessage }
  /** A real failure (the function unreachable, broken or misconfigured): the spec's "Something went wrong". */
  | { status: "failed"; values: ContactMessage };

export type OutcomeStatus = FormOutcome["status"];

/**
 * The page a successful post without JavaScript is sent to (app/routes/message-sent.tsx: the file's name
 * is the path), at the form, where the success notice is. The same for every visitor (it shows nothing
 * that was sent), but private.
 */
export const SENT_PAGE = "/message-sent";
export const SENT_PAGE_TARGET = `${SENT_PAGE}#contact`;

/**
 * The HTTP status of the no-JS answer to each outcome: a success is sent on to the result page (303 See
 * Other, Post/Redirect/Get: SENT_PAGE above); every other outcome is a page of its own.
 */
export const OUTCOME_HTTP_STATUS: Record<OutcomeStatus, number> = {
  ok: 303,
  missing: 400,
  invalid: 422,
  "too-fast": 400,
  "rate-limited": 429,
  refused: 400,
  failed: 502,
};

/** What came back from `functions.invoke`: its error (null when the call succeeded) and the answer read from it. */
export type InvokeResult = { outcome: FormOutcome; answer?: EnquiryResult; httpStatus?: number };

/**
 * The outcome of `functions.invoke('send-contact-email')`, from its `error` (null: success). supabase-js
 * and @supabase/functions-js report a non-2xx answer as FunctionsHttpError with the Response in
 * `context`; the typed answer (EnquiryResult) is its JSON body. No answer at all (offline, refused,
 * timed out) and any answer that is not one of the outcomes a visitor can act on are failures.
 */
export async function outcomeOfInvoke(error: unknown, values: ContactMessage): Promise<InvokeResult> {
  if (!error) return { outcome: { status: "ok" } };
  const response = (error as { context?: unknown }).context;
  if (!(response instanceof Response)) return { outcome: { status: "failed", values } };
  const answer = (await response
    .clone()
    .json()
    .catch(() => undefined)) as EnquiryResult | undefined;
  const httpStatus = response.status;
  switch (answer?.status) {
    case "invalid":
      return { answer, httpStatus, outcome: { status: "invalid", values, fieldErrors: answer.fieldErrors } };
    case "too-fast":
      return { answer, httpStatus, outcome: { status: "too-fast", values } };
    case "rate-limited":
      return { answer, httpStatus, outcome: { status: "rate-limited", values, retryAfterSeconds: answer.retryAfterSeconds } };
    default:
      return { answer, httpStatus, outcome: { status: "failed", values } };
  }
}
