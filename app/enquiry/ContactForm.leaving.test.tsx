import { act, fireEvent, render, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { toasts } from "~/content";
import { ToastViewport } from "~/toasts/Toasts";
import { ContactForm } from "./ContactForm";
import type { SendMeta } from "./send.client";

vi.mock("./send.client", () => ({
  preloadSupabase: vi.fn(() => Promise.resolve()),
  sendEnquiry: vi.fn(),
}));
const { sendEnquiry } = await import("./send.client");

const props = {
  studioEmail: "studio@example.com",
  publicEnv: { supabaseUrl: "http://127.0.0.1:1", supabaseAnonKey: "k" },
};
// happy-dom's PageTransitionEvent is a plain Event: `persisted` is set by hand.
const pageTransition = (type: string, persisted: boolean) => Object.defineProperty(new Event(type), "persisted", { value: persisted });

function fillAndSend(projectTitle = "Debut EP") {
  render(
    <>
      <ContactForm {...props} />
      <ToastViewport />
    </>,
  );
  fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Ada" } });
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: "ada@example.com" } });
  fireEvent.change(screen.getByLabelText("Project Title"), { target: { value: projectTitle } });
  fireEvent.submit(screen.getByRole("button", { name: "Send Message" }).closest("form")!);
}
const keyOf = (call: number) => (vi.mocked(sendEnquiry).mock.calls[call]![2] as SendMeta).idempotencyKey;

describe("ContactForm: a Send and the visitor leaving the page (issue 34)", () => {
  beforeEach(() => {
    vi.mocked(sendEnquiry).mockReset();
    sessionStorage.clear();
  });

  it("a call cut off by leaving is no failure: on Back (back/forward cache) the same message goes again with the same key, then the success toast", async () => {
    vi.mocked(sendEnquiry)
      .mockImplementationOnce(async (_env, message) => {
        // The browser cuts the call off as the page goes into its back/forward cache.
        dispatchEvent(pageTransition("pagehide", true));
        return { outcome: { status: "failed", values: message }, error: new TypeError("Load failed") };
      })
      .mockResolvedValueOnce({ outcome: { status: "ok" } });
    fillAndSend();
    await vi.waitFor(() => expect(sendEnquiry).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(toasts.failure.title), "a failure shown for a call the visitor left").toBeNull();
    expect(screen.getByRole("button", { name: "Sending..." })).toBeDisabled();

    await act(async () => void dispatchEvent(pageTransition("pageshow", true)));
    await vi.waitFor(() => expect(sendEnquiry).toHaveBeenCalledTimes(2));
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(keyOf(1)).toBe(keyOf(0));
    expect(screen.getByLabelText("Project Title")).toHaveValue("");
    expect(screen.getByRole("button", { name: "Send Message" })).toBeEnabled();
  });

  it("a page that comes Back without the cache sends the same values with the key of the Send that was cut off", async () => {
    vi.mocked(sendEnquiry).mockImplementation(() => new Promise(() => undefined)); // left on its way
    fillAndSend("Second try");
    await vi.waitFor(() => expect(sendEnquiry).toHaveBeenCalledTimes(1));
    const first = keyOf(0);
    document.body.innerHTML = ""; // the page is gone; a new copy of it comes Back
    vi.mocked(sendEnquiry).mockReset();
    vi.mocked(sendEnquiry).mockResolvedValue({ outcome: { status: "ok" } });
    fillAndSend("Second try");
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(keyOf(0)).toBe(first);
  });
});
