/**
 * What one Send from the browser needs to survive the visitor leaving the page (decisions 026
 * and 029): its Idempotency-Key, kept with the message it was made for and what became of it
 * (attempt-record.ts), and whether the page was left while it was on its way.
 *
 * The key: one per distinct message, made in the browser (the page is the same for everyone). A second
 * Send of the same values reuses it (the function stores the enquiry once), edited values get a new one,
 * and a success renews it. It is kept in sessionStorage (this tab only), so a page that comes Back
 * without the back/forward cache, its Send cut off on the way, sends the same values with the same key:
 * an enquiry that arrived is not stored twice.
 */
import type { ContactMessage } from "#shared/contact-message.ts";
import { ATTEMPT_STORAGE_KEY, UNFINISHED, type Attempt, type AttemptState } from "./attempt-record";

// Where storage is blocked: this page's memory only.
let inMemory: Attempt | undefined;

function kept(): Attempt | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(ATTEMPT_STORAGE_KEY) ?? "null") as Partial<Attempt> | null;
    return typeof stored?.key === "string" && typeof stored.values === "string" && typeof stored.state === "string"
      ? (stored as Attempt)
      : inMemory;
  } catch {
    return inMemory;
  }
}

function keep(attempt: Attempt | undefined) {
  inMemory = attempt;
  try {
    if (attempt) sessionStorage.setItem(ATTEMPT_STORAGE_KEY, JSON.stringify(attempt));
    else sessionStorage.removeItem(ATTEMPT_STORAGE_KEY);
  } catch {
    // Storage blocked or full: this page's memory keeps it.
  }
}

const valuesOf = (message: ContactMessage) => JSON.stringify(message);

/**
 * A Send of `message` starts: its Idempotency-Key (the kept one if it was made for the same values and
 * that enquiry was not stored yet), recorded as on its way.
 */
export function beginAttempt(message: ContactMessage): string {
  const values = valuesOf(message);
  const attempt = kept();
  const key = attempt?.values === values && attempt.state !== "sent" ? attempt.key : crypto.randomUUID();
  keep({ key, values, state: "sending" });
  return key;
}

/**
 * The Send was answered: stored (`sent`, until its toast has been seen; the values it was made for are
 * not kept past it), or otherwise (`settled`, the key kept for the same values).
 */
export function settleAttempt(state: Exclude<AttemptState, "sending">) {
  const attempt = kept();
  if (attempt) keep({ ...attempt, state, values: state === "sent" ? "" : attempt.values });
}

/** The success toast has been seen (or a new Send started): nothing is left to say of the last Send. */
export function successSeen() {
  if (kept()?.state === "sent") keep(undefined);
}

/**
 * The toast of the success whose record is kept now has been on screen its whole time: that success is
 * seen, unless another Send has been made since (a second success within the toast's time keeps its own
 * record until its own toast has been seen).
 */
export function afterSuccessToast(durationMs: number): void {
  const key = kept()?.key;
  setTimeout(() => kept()?.key === key && successSeen(), durationMs);
}

/**
 * For a page that came back through history (attempt-record.ts): the Send to finish, if any. `sending`
 * only for the same values as the form holds now (what the visitor left is what goes).
 */
export function unfinishedAttempt(message: ContactMessage): "sending" | "sent" | undefined {
  const attempt = kept();
  if (!attempt || !UNFINISHED.includes(attempt.state)) return undefined;
  if (attempt.state === "sending" && attempt.values !== valuesOf(message)) return undefined;
  return attempt.state as "sending" | "sent";
}

/** How long a failed call waits for the page to be left, once the visitor has started to leave it. */
export const LEAVING_GRACE_MS = 5_000;
/**
 * How long a call that got no answer at all waits for a `pagehide` before it is a failure: WebKit cancels
 * a page's calls as a navigation away begins, before any event says so (under WebDriver, without a
 * `beforeunload`), and the next page usually commits within a moment.
 */
export const NO_ANSWER_GRACE_MS = 1_000;

/**
 * Watches for the visitor leaving the page while a Send is on its way. A browser cuts a call off as
 * the visitor starts to leave (`beforeunload`: WebKit, before `pagehide`) or as the page goes into its
 * back/forward cache: the call then fails though the enquiry may have arrived, or (WebKit) never
 * settles at all once the page is shown again. `back` resolves when the page is shown again from that
 * cache after being left: the call is then not waited for. `cutOff()` says, for a failed call, whether
 * it was the leaving: "back" once the page is shown again (or never, for a page that is gone),
 * "stayed" if the visitor did not leave after all.
 */
export function watchLeaving() {
  let starting = false;
  let left = false;
  let backAgain: () => void = () => undefined;
  let hiddenNow: () => void = () => undefined;
  const back = new Promise<void>((resolve) => (backAgain = resolve));
  const gone = new Promise<void>((resolve) => (hiddenNow = resolve));
  const leaving = () => (starting = true);
  const hidden = () => ((left = true), hiddenNow());
  // Shown from the cache: the page was left, even if its pagehide came before this watch began (a Send
  // handed over as the page was being left, WebKit).
  const shown = (event: PageTransitionEvent) => event.persisted && ((left = true), backAgain());
  addEventListener("beforeunload", leaving);
  addEventListener("pagehide", hidden);
  addEventListener("pageshow", shown);
  const stop = () => {
    removeEventListener("beforeunload", leaving);
    removeEventListener("pagehide", hidden);
    removeEventListener("pageshow", shown);
  };
  return {
    back,
    /** `answered`: the function answered (an HTTP status): nothing cut off mid-way. */
    async cutOff(answered = false): Promise<"back" | "stayed"> {
      if (!left && !answered) {
        const grace = starting ? LEAVING_GRACE_MS : NO_ANSWER_GRACE_MS;
        await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, grace))]);
      }
      if (!left) return (stop(), "stayed");
      await back;
      stop();
      return "back";
    },
    stop,
  };
}
