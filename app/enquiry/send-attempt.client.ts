/**
 * What one Send from the browser needs to survive the visitor leaving the page (issue 34, decision 026):
 * its Idempotency-Key, kept with the message it was made for, and whether the page was left while it was
 * on its way.
 *
 * The key: one per distinct message, made in the browser (the page is the same for everyone). A second
 * Send of the same values reuses it (the function stores the enquiry once), edited values get a new one,
 * and a success renews it. It is kept in sessionStorage (this tab only), so a page that comes Back
 * without the back/forward cache, its Send cut off on the way, sends the same values with the same key:
 * an enquiry that arrived is not stored twice.
 */
import type { ContactMessage } from "#shared/contact-message.ts";

const STORAGE_KEY = "enquiry-attempt";
type Attempt = { key: string; values: string };
// Where storage is blocked: this page's memory only.
let inMemory: Attempt | undefined;

function kept(): Attempt | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null") as Partial<Attempt> | null;
    return typeof stored?.key === "string" && typeof stored.values === "string" ? (stored as Attempt) : inMemory;
  } catch {
    return inMemory;
  }
}

/** The Idempotency-Key for sending `message`: the kept one if it was made for the same values. */
export function idempotencyKeyFor(message: ContactMessage): string {
  const values = JSON.stringify(message);
  const attempt = kept();
  if (attempt?.values === values) return attempt.key;
  inMemory = { key: crypto.randomUUID(), values };
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(inMemory));
  } catch {
    // Storage blocked or full: this page's memory keeps it.
  }
  return inMemory.key;
}

/** The message was stored: the next Send, even of the same values, is a new enquiry. */
export function forgetAttempt() {
  inMemory = undefined;
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing kept there
  }
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
 * back/forward cache: the call then fails though the enquiry may have arrived. `cutOff()` says, for a
 * failed call, whether it was the leaving: "back" once the page is shown again from that cache (or
 * never, for a page that is gone), "stayed" if the visitor did not leave after all.
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
  const shown = (event: PageTransitionEvent) => left && event.persisted && backAgain();
  addEventListener("beforeunload", leaving);
  addEventListener("pagehide", hidden);
  addEventListener("pageshow", shown);
  const stop = () => {
    removeEventListener("beforeunload", leaving);
    removeEventListener("pagehide", hidden);
    removeEventListener("pageshow", shown);
  };
  return {
    /** `answered`: the function answered (an HTTP status), or no call was made: nothing cut off mid-way. */
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
