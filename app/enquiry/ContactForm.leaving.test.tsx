import { act, fireEvent, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import toast from "react-hot-toast";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { toasts } from "~/content";
import { ToastViewport } from "~/toasts/Toasts";
import { ATTEMPT_STORAGE_KEY } from "./attempt-record";
import { ContactForm } from "./ContactForm";
import { formLayer, formLayerSource, type LayerConfig } from "./form-layer.inline";
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

const page = () =>
  render(
    <>
      <ContactForm {...props} />
      <ToastViewport />
    </>,
  );
function fill(projectTitle: string) {
  fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Ada" } });
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: "ada@example.com" } });
  fireEvent.change(screen.getByLabelText("Project Title"), { target: { value: projectTitle } });
}
function fillAndSend(projectTitle = "Debut EP") {
  page();
  fill(projectTitle);
  fireEvent.submit(screen.getByRole("button", { name: "Send Message" }).closest("form")!);
}
/** The config and blank check as the page's script carries them (formLayerSource's output, the layer replaced). */
function pageConfig(island: LayerConfig["island"]) {
  let taken: [LayerConfig, (value: string) => boolean] | undefined;
  const source = formLayerSource(island).replace(formLayer.toString(), "take");
  new Function("take", source)((...args: typeof taken & unknown[]) => (taken = args));
  return taken!;
}
/**
 * A new copy of the page, come back through history: the server's HTML, into which the browser (or the
 * draft) has put the values back, with the page's inline layer, which reads the last Send's record;
 * then React hydrates the island, as on the site. A new page has no toasts of the old one.
 */
function comeBack(projectTitle?: string) {
  toast.remove();
  document.body.innerHTML = "";
  const container = document.body.appendChild(document.createElement("div"));
  container.innerHTML = renderToString(<ContactForm {...props} />);
  const form = container.querySelector("form")!;
  if (projectTitle)
    for (const [name, value] of Object.entries({ name: "Ada", email: "ada@example.com", projectTitle }))
      (form.elements.namedItem(name) as HTMLInputElement).value = value;
  const arrival = vi.spyOn(performance, "getEntriesByType").mockReturnValue([{ type: "back_forward" } as unknown as PerformanceEntry]);
  formLayer(...pageConfig({ entry: "data:text/javascript,export{};//", imports: [] }));
  arrival.mockRestore();
  render(<ContactForm {...props} />, { container, hydrate: true });
  render(<ToastViewport />);
}
const keyOf = (call: number) => (vi.mocked(sendEnquiry).mock.calls[call]![2] as SendMeta).idempotencyKey;

describe("ContactForm: a Send and the visitor leaving the page (decision 029)", () => {
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

  it("a call that never settles once the page is shown again from the back/forward cache (WebKit): the same values go again with the same key", async () => {
    vi.mocked(sendEnquiry)
      .mockImplementationOnce(() => {
        dispatchEvent(pageTransition("pagehide", true));
        return new Promise(() => undefined);
      })
      .mockResolvedValueOnce({ outcome: { status: "ok" } });
    fillAndSend();
    await vi.waitFor(() => expect(sendEnquiry).toHaveBeenCalledTimes(1));
    await act(async () => void dispatchEvent(pageTransition("pageshow", true)));
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(keyOf(1)).toBe(keyOf(0));
    expect(screen.getByRole("button", { name: "Send Message" })).toBeEnabled();
  });

  it("a Send that starts as the page is being left (its pagehide already past) and never settles: shown again from the cache, it goes again with its key", async () => {
    vi.mocked(sendEnquiry)
      .mockImplementationOnce(() => new Promise(() => undefined))
      .mockResolvedValueOnce({ outcome: { status: "ok" } });
    dispatchEvent(pageTransition("pagehide", true));
    fillAndSend();
    await vi.waitFor(() => expect(sendEnquiry).toHaveBeenCalledTimes(1));
    await act(async () => void dispatchEvent(pageTransition("pageshow", true)));
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(keyOf(1)).toBe(keyOf(0));
  });

  it("supabase-js's download cut off by leaving (WebKit cancels it before any event): no post from under the next page; on Back it goes with the same key", async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => {});
    vi.mocked(sendEnquiry)
      .mockImplementationOnce(async (_env, message) => {
        // The download fails first; the page's pagehide comes a moment later.
        setTimeout(() => dispatchEvent(pageTransition("pagehide", true)), 200);
        return {
          outcome: { status: "failed", values: message },
          error: new TypeError("Importing a module script failed."),
          clientUnavailable: true,
        };
      })
      .mockResolvedValueOnce({ outcome: { status: "ok" } });
    fillAndSend();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(submit, "a post racing the visitor's navigation").not.toHaveBeenCalled();
    await act(async () => void dispatchEvent(pageTransition("pageshow", true)));
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(keyOf(1)).toBe(keyOf(0));
    submit.mockRestore();
  });

  it("stored, and the page left before its toast was seen to its end: a new copy come Back shows the success toast, and sends nothing", async () => {
    vi.mocked(sendEnquiry).mockResolvedValue({ outcome: { status: "ok" } });
    fillAndSend("Stored then left");
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem(ATTEMPT_STORAGE_KEY)!).state).toBe("sent");
    await act(async () => void comeBack());
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(sendEnquiry).toHaveBeenCalledTimes(1);
    expect(screen.getByLabelText("Project Title")).toHaveValue("");
  });

  it("stored, the page cached and shown again with its toast gone meanwhile: the success toast shows again", async () => {
    vi.mocked(sendEnquiry).mockResolvedValue({ outcome: { status: "ok" } });
    fillAndSend("Cached");
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    dispatchEvent(pageTransition("pagehide", true));
    act(() => toast.remove());
    expect(screen.queryByText(toasts.success.text)).toBeNull();
    await act(async () => void dispatchEvent(pageTransition("pageshow", true)));
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(sendEnquiry).toHaveBeenCalledTimes(1);
  });

  it("stored, the page cached and shown again, the browser giving the focused field its focus back: the success toast shows again", async () => {
    vi.mocked(sendEnquiry).mockResolvedValue({ outcome: { status: "ok" } });
    fillAndSend("Focus given back");
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    dispatchEvent(pageTransition("pagehide", true));
    act(() => toast.remove());
    // Firefox focuses the field that had focus as it restores the page, around its pageshow.
    fireEvent.focus(screen.getByLabelText("Name"));
    await act(async () => void dispatchEvent(pageTransition("pageshow", true)));
    fireEvent.focus(screen.getByLabelText("Email"));
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem(ATTEMPT_STORAGE_KEY)!).state, "the success, still unseen").toBe("sent");
  });

  it("a success seen to its end, or the visitor back in a field: nothing is said again on Back", async () => {
    vi.mocked(sendEnquiry).mockResolvedValue({ outcome: { status: "ok" } });
    fillAndSend("Seen");
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    fireEvent.focus(screen.getByLabelText("Name"));
    expect(sessionStorage.getItem(ATTEMPT_STORAGE_KEY)).toBeNull();
  });

  it("on its way when the page was left: a new copy come Back with the same values sends them with that key, then the success toast", async () => {
    vi.mocked(sendEnquiry).mockImplementation(() => new Promise(() => undefined));
    fillAndSend("Cut off");
    await vi.waitFor(() => expect(sendEnquiry).toHaveBeenCalledTimes(1));
    const first = keyOf(0);
    vi.mocked(sendEnquiry).mockReset();
    vi.mocked(sendEnquiry).mockResolvedValue({ outcome: { status: "ok" } });
    await act(async () => void comeBack("Cut off"));
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(sendEnquiry).toHaveBeenCalledTimes(1);
    expect(keyOf(0)).toBe(first);

    // Other values than the Send's (the draft could not be kept): nothing goes by itself.
    sessionStorage.setItem(ATTEMPT_STORAGE_KEY, JSON.stringify({ key: first, values: "{}", state: "sending" }));
    await act(async () => void comeBack("Something else"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sendEnquiry).toHaveBeenCalledTimes(1);
  });
});
