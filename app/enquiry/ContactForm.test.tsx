import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import fc from "fast-check";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { emptyMessage } from "#shared/contact-message.ts";
import { contactForm, toasts } from "~/content";
import { ToastViewport } from "~/toasts/Toasts";
import { unseenText } from "../../tests/unicode";
import { ContactForm } from "./ContactForm";
import { formLayer, formLayerSource, LAYER_GLOBAL, type FormLayer, type LayerConfig } from "./form-layer.inline";

vi.mock("./send.client", () => ({
  preloadSupabase: vi.fn(() => Promise.resolve()),
  sendEnquiry: vi.fn(() => Promise.resolve({ outcome: { status: "ok" } })),
}));
const { sendEnquiry } = await import("./send.client");

const props = {
  studioEmail: "studio@example.com",
  publicEnv: { supabaseUrl: "http://127.0.0.1:1", supabaseAnonKey: "k" },
};

/** The config and blank check as the page's script carries them (formLayerSource's output, the layer replaced). */
function pageConfig(island: LayerConfig["island"]) {
  let taken: [LayerConfig, (value: string) => boolean] | undefined;
  const source = formLayerSource(island).replace(formLayer.toString(), "take");
  new Function("take", source)((...args: typeof taken & unknown[]) => (taken = args));
  return taken!;
}
const islandPage = (
  <>
    <ContactForm {...props} />
    <ToastViewport />
  </>
);
/** The server's HTML with the page's inline layer running in it, before the island hydrates. */
function serverPageWithLayer() {
  const host = document.body.appendChild(document.createElement("div"));
  host.innerHTML = renderToString(islandPage);
  formLayer(...pageConfig({ entry: "data:text/javascript,export{};//", imports: [] }));
  const form = host.querySelector("form")!;
  const press = () => form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
  return { host, form, press };
}
const fillIn = (form: HTMLFormElement, values: Record<string, string>) => {
  for (const [name, value] of Object.entries(values)) (form.elements.namedItem(name) as HTMLInputElement).value = value;
};

describe("ContactForm", () => {
  it("keeps what a visitor typed into the server's fields before React took over, even over kept values", () => {
    // A no-JS result page keeps the values; the visitor edits them before the page hydrates.
    const values = { ...emptyMessage(), name: "Ada", email: "ada@example.com", projectTitle: "EP", projectDetails: "kept by the server" };
    const page = <ContactForm {...props} outcome={{ status: "failed", values }} />;
    const host = document.createElement("div");
    host.innerHTML = renderToString(page);
    document.body.append(host);
    host.querySelector("textarea")!.value = "edited before hydration";
    host.querySelector<HTMLInputElement>("input[name=name]")!.value = "Ada L.";
    render(page, { container: host, hydrate: true });
    expect(screen.getByLabelText(/Project Details/)).toHaveValue("edited before hydration");
    expect(screen.getByLabelText("Name")).toHaveValue("Ada L.");
  });

  it("takes over a Send pressed before it hydrated: hydrates showing Sending..., sends the values it was pressed with once, then the success toast", async () => {
    const { host, form, press } = serverPageWithLayer();
    fillIn(form, { name: "Ada", email: "ada@example.com", projectTitle: "EP" });
    press();
    expect(host.querySelector("button[type=submit]")).toHaveTextContent(contactForm.sending);
    (form.elements.namedItem("projectTitle") as HTMLInputElement).value = "Edited after Send";
    vi.mocked(sendEnquiry).mockClear();
    render(islandPage, { container: host, hydrate: true });
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(sendEnquiry).toHaveBeenCalledTimes(1);
    expect(vi.mocked(sendEnquiry).mock.calls[0]![1]).toMatchObject({ name: "Ada", email: "ada@example.com", projectTitle: "EP" });
    expect(screen.getByLabelText("Name")).toHaveValue("");
    expect(screen.getByRole("button", { name: contactForm.submit })).toBeEnabled();
    expect(document.documentElement).toHaveAttribute("data-hydrated");
  });

  it("a Send pressed before it hydrated with a required field blank: the spec's toast, no call, the form the visitor's", async () => {
    const { host, form, press } = serverPageWithLayer();
    fillIn(form, { name: "Ada", email: "ada@example.com", projectTitle: "\u200B" });
    press();
    render(islandPage, { container: host, hydrate: true });
    expect(await screen.findByText(toasts.missingFields.title)).toBeInTheDocument();
    expect(sendEnquiry).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: contactForm.submit })).toBeEnabled();
  });

  it("a Send the page dropped while it hydrated (the visitor left between its first render and its mount): nothing sent, the form the visitor's", async () => {
    // WebKit, CI 2026-11-26: the form hydrated showing Sending... for a Send dropped at pagehide, and stayed so after Back.
    const { host, form, press } = serverPageWithLayer();
    fillIn(form, { name: "Ada", email: "ada@example.com", projectTitle: "EP" });
    press();
    const layer = (window as unknown as Record<string, FormLayer>)[LAYER_GLOBAL]!;
    const ready = layer.ready;
    layer.ready = () => (dispatchEvent(new Event("pagehide")), ready());
    render(islandPage, { container: host, hydrate: true });
    await act(async () => undefined);
    expect(sendEnquiry).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: contactForm.submit })).toBeEnabled();
    expect(screen.getByLabelText("Project Title")).toHaveValue("EP");
  });

  it("labels every field and marks the required ones", () => {
    render(<ContactForm {...props} />);
    expect(screen.getByLabelText("Name")).toBeRequired();
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    expect(screen.getByLabelText("Project Title")).toBeRequired();
    expect(screen.getByLabelText(/Project Details/)).not.toBeRequired();
  });

  it("shows the spec's toast and makes no call when a required field is blank", async () => {
    render(
      <>
        <ContactForm {...props} />
        <ToastViewport />
      </>,
    );
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "   " } });
    fireEvent.submit(screen.getByRole("button", { name: "Send Message" }).closest("form")!);
    expect(await screen.findByText("Please fill in all required fields")).toBeInTheDocument();
    expect(screen.getByText("Name, email, and project title are required.")).toBeInTheDocument();
    expect(sendEnquiry).not.toHaveBeenCalled();
  });

  it("treats a field a reader would see nothing in (zero-width, any white space, marks alone) as blank: the same toast, no call", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("Name", "Email", "Project Title"), unseenText, async (label, value) => {
        cleanup();
        (await import("react-hot-toast")).toast.remove();
        vi.mocked(sendEnquiry).mockClear();
        render(
          <>
            <ContactForm {...props} />
            <ToastViewport />
          </>,
        );
        for (const [field, filled] of [
          ["Name", "Ada"],
          ["Email", "ada@example.com"],
          ["Project Title", "EP"],
        ]) {
          fireEvent.change(screen.getByLabelText(field!), { target: { value: field === label ? value : filled } });
        }
        fireEvent.submit(screen.getByRole("button", { name: "Send Message" }).closest("form")!);
        expect(await screen.findByText("Please fill in all required fields")).toBeInTheDocument();
        expect(sendEnquiry).not.toHaveBeenCalled();
      }),
      { numRuns: 25 },
    );
  });

  describe("when supabase-js cannot load (its file blocked, or gone after a deploy)", () => {
    const fillAndSend = () => {
      render(
        <>
          <ContactForm {...props} />
          <ToastViewport />
        </>,
      );
      fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Ada" } });
      fireEvent.change(screen.getByLabelText("Email"), { target: { value: "ada@example.com" } });
      fireEvent.change(screen.getByLabelText("Project Title"), { target: { value: "EP" } });
      fireEvent.submit(screen.getByRole("button", { name: "Send Message" }).closest("form")!);
    };
    const unavailable = { outcome: { status: "failed", values: {} }, error: new TypeError("import failed"), clientUnavailable: true };

    // After a second without the page being left (NO_ANSWER_GRACE_MS): a download cut off by leaving is not this.
    it("posts the form as it does without JavaScript, so the enquiry still goes", async () => {
      vi.mocked(sendEnquiry).mockResolvedValueOnce(unavailable as never);
      const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => {});
      vi.spyOn(console, "error").mockImplementation(() => {});
      fillAndSend();
      await vi.waitFor(() => expect(submit).toHaveBeenCalledTimes(1), { timeout: 3000 });
      expect((submit.mock.contexts[0] as HTMLFormElement).elements.namedItem("name")).toHaveValue("Ada");
      expect(screen.queryByText(toasts.failure.title)).not.toBeInTheDocument();
      vi.restoreAllMocks();
    });

    it("offline, shows the failure toast with the values kept instead (a post could not go either)", async () => {
      vi.mocked(sendEnquiry).mockResolvedValueOnce(unavailable as never);
      const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => {});
      vi.spyOn(console, "error").mockImplementation(() => {});
      vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
      fillAndSend();
      expect(await screen.findByText(toasts.failure.title, {}, { timeout: 3000 })).toBeInTheDocument();
      expect(submit).not.toHaveBeenCalled();
      expect(screen.getByLabelText("Name")).toHaveValue("Ada");
      vi.restoreAllMocks();
    });
  });

  it("renders a no-JavaScript failure with the values kept and the studio e-mail as a link", () => {
    const values = { ...emptyMessage(), name: "Ada", email: "ada@example.com", projectTitle: "EP", projectDetails: "notes" };
    render(<ContactForm {...props} outcome={{ status: "failed", values }} />);
    expect(screen.getByRole("alert")).toHaveTextContent("Something went wrong");
    expect(screen.getByRole("link", { name: "studio@example.com" })).toHaveAttribute("href", "mailto:studio@example.com");
    expect(screen.getByLabelText("Name")).toHaveValue("Ada");
    expect(screen.getByLabelText(/Project Details/)).toHaveValue("notes");
  });

  it("ties a returned field error to its field", () => {
    const values = { ...emptyMessage(), name: "Ada", email: "bad", projectTitle: "EP", projectDetails: "" };
    render(<ContactForm {...props} outcome={{ status: "invalid", values, fieldErrors: { email: "Enter a valid email address." } }} />);
    const email = screen.getByLabelText("Email");
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription("Enter a valid email address.");
    expect(email).toHaveFocus();
  });

  it.each([
    [{ status: "too-fast" } as const, "Please take a moment and send again"],
    [{ status: "rate-limited", retryAfterSeconds: 290 } as const, "Please try again in 5 minutes"],
    [{ status: "refused" } as const, "We could not read that form"],
  ])("gives the no-JavaScript outcome %j its own message, not the failure text, with the values kept", (outcome, title) => {
    const values = { ...emptyMessage(), name: "Ada", email: "ada@example.com", projectTitle: "EP", projectDetails: "notes" };
    render(<ContactForm {...props} outcome={{ ...outcome, values }} />);
    expect(screen.getByRole("alert")).toHaveTextContent(title);
    expect(screen.getByRole("alert")).not.toHaveTextContent("Something went wrong");
    expect(screen.getByLabelText("Project Title")).toHaveValue("EP");
  });

  it("counts a field's length in characters a person sees: 100 emoji fit the name, 101 show the limit", () => {
    render(<ContactForm {...props} />);
    const name = screen.getByLabelText("Name");
    expect(name).not.toHaveAttribute("maxlength");
    fireEvent.input(name, { target: { value: "🎤".repeat(100) } });
    expect(name).not.toHaveAttribute("aria-invalid");
    fireEvent.input(name, { target: { value: "🎤".repeat(101) } });
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(name).toHaveAccessibleDescription("Name must be 100 characters or fewer.");
  });
});
