/**
 * The booking form's last Send, as the browser keeps it in sessionStorage (this tab only): its
 * Idempotency-Key, the values it was made for, and what became of it. Written by the form's component
 * (send-attempt.client.ts), read also by the page's inline layer (form-layer.inline.ts), which
 * runs before any module: so it lives here, in plain constants, for both.
 *
 * A page that comes back through history (Back, Forward, reload) with a Send unfinished finishes it,
 * with or without the back/forward cache (decision 029): a Send still on its way when the page was left
 * goes again with its key (stored once either way), and a success whose toast the visitor had not yet
 * seen to its end shows its toast again. Either way the page says what became of the enquiry.
 */
export const ATTEMPT_STORAGE_KEY = "enquiry-attempt";

/**
 * - `sending`: on its way (or cut off by leaving, its answer never read);
 * - `sent`: stored, its success toast not yet seen to its end;
 * - `settled`: answered otherwise (refused, failed): its key is kept for the same values.
 */
export type AttemptState = "sending" | "sent" | "settled";
export type Attempt = { key: string; values: string; state: AttemptState };

/** The states a page arriving through history finishes. */
export const UNFINISHED: readonly AttemptState[] = ["sending", "sent"];

/**
 * Set on `window` by the draft script when the page came back through history with a Send unfinished
 * (a global, not a mark on the form: React would see an attribute it did not render).
 */
export const RESUME_GLOBAL = "__resumeSend";
