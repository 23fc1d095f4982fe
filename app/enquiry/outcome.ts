/** What the no-JavaScript path (the home route's action) tells the form after a post: one outcome each. */
import type { ContactMessage, FieldErrors } from "../../supabase/functions/_shared/contact-message.ts";

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
  /** A real failure (the function unreachable or broken): the spec's "Something went wrong". */
  | { status: "failed"; values: ContactMessage };

/** The HTTP status of the page that shows each outcome. */
export const OUTCOME_HTTP_STATUS: Record<FormOutcome["status"], number> = {
  ok: 200,
  missing: 400,
  invalid: 422,
  "too-fast": 400,
  "rate-limited": 429,
  refused: 400,
  failed: 502,
};
