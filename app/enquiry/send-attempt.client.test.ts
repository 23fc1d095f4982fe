import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { emptyMessage } from "#shared/contact-message.ts";
import { afterSuccessToast, beginAttempt, settleAttempt, unfinishedAttempt } from "./send-attempt.client";

const TOAST_MS = 8_000;
const message = (projectTitle: string) => ({ ...emptyMessage(), name: "Ada", email: "ada@example.com", projectTitle });

describe("the last Send's record and its success toast", () => {
  beforeEach(() => {
    sessionStorage.clear();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  const succeed = (title: string) => {
    beginAttempt(message(title));
    settleAttempt("sent");
    afterSuccessToast(TOAST_MS);
  };

  it("a success is unseen until its toast has been on screen its whole time", () => {
    succeed("One");
    vi.advanceTimersByTime(TOAST_MS - 1);
    expect(unfinishedAttempt(message("One"))).toBe("sent");
    vi.advanceTimersByTime(1);
    expect(unfinishedAttempt(message("One"))).toBeUndefined();
  });

  it("two successes within the toast's time: the first toast ending leaves the second success unseen until its own ends", () => {
    succeed("First");
    vi.advanceTimersByTime(3_000);
    succeed("Second");
    vi.advanceTimersByTime(TOAST_MS - 3_000); // the first toast's time is over
    expect(unfinishedAttempt(message("Second")), "the second success, after the first toast's time").toBe("sent");
    vi.advanceTimersByTime(3_000); // and now the second's
    expect(unfinishedAttempt(message("Second"))).toBeUndefined();
  });
});
