// The form draws its fields from the contract's entries alone (docs/decisions/022): a new entry shows up
// in its place, optional or required, one line or many or a choice, with its type and autocomplete, and no edit here.
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type * as Contract from "#shared/contact-message.ts";
import type { FieldSpec } from "#shared/contact-message.ts";
import { FIELDS } from "#shared/contact-message.ts";
import { contactForm, toasts } from "~/content";
import { ToastViewport } from "~/toasts/Toasts";
import { ContactForm } from "./ContactForm";

// Hoisted with the mocks that use it. Names and labels no real field will take: a real Phone or Budget
// field added to the contract must not collide with these.
const EXTRA = vi.hoisted(() => [
  { name: "testOnlyTel", label: "Test-only tel", required: false, limit: 30, lines: "one", autocomplete: "tel", inputType: "tel" },
  { name: "testOnlyLines", label: "Test-only lines", required: true, limit: 50, lines: "many", autocomplete: "off", inputType: "text" },
  {
    name: "testOnlyChoice",
    label: "Test-only choice",
    required: false,
    limit: 40,
    lines: "one",
    autocomplete: "off",
    inputType: "text",
    options: ["Live room", "Vocal booth"],
  },
]);

// The contract with three entries added after the address (its derived lists made again from FIELDS).
vi.mock("#shared/contact-message.ts", async (importOriginal) => {
  const real = await importOriginal<typeof Contract>();
  const FIELDS = [...real.FIELDS.slice(0, 2), ...EXTRA, ...real.FIELDS.slice(2)];
  return {
    ...real,
    FIELDS,
    CONTACT_FIELDS: FIELDS.map((f) => f.name),
    FIELD_SPECS: Object.fromEntries(FIELDS.map((f) => [f.name, f])),
    FIELD_LIMITS: Object.fromEntries(FIELDS.map((f) => [f.name, f.limit])),
    REQUIRED_FIELDS: FIELDS.filter((f) => f.required).map((f) => f.name),
    emptyMessage: () => Object.fromEntries(FIELDS.map((f) => [f.name, ""])),
  };
});
vi.mock("~/content", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/content")>();
  return {
    ...real,
    contactForm: {
      ...real.contactForm,
      labels: {
        ...real.contactForm.labels,
        testOnlyTel: "Test-only tel",
        testOnlyLines: "Test-only lines",
        testOnlyChoice: "Test-only choice",
      },
      placeholders: {
        ...real.contactForm.placeholders,
        testOnlyTel: "+1 416 555 0100",
        testOnlyLines: "About",
        testOnlyChoice: "Choose one",
      },
    },
  };
});
vi.mock("./send.client", () => ({ preloadSupabase: vi.fn(() => Promise.resolve()), sendEnquiry: vi.fn() }));
const { sendEnquiry } = await import("./send.client");
const props = { studioEmail: "studio@example.com", publicEnv: { supabaseUrl: "http://127.0.0.1:1", supabaseAnonKey: "k" } };

describe("the form's fields", () => {
  it("are the contract's entries, in their order, each as its entry says", () => {
    render(<ContactForm {...props} />);
    const names = [...document.querySelectorAll<HTMLInputElement>("form [name]")].map((c) => c.name).filter((n) => n !== "website");
    expect(names).toEqual(FIELDS.map((f) => f.name));
    const tel = screen.getByLabelText(/^Test-only tel/);
    expect(tel).not.toBeRequired();
    expect(tel).toHaveAttribute("type", "tel");
    expect(tel).toHaveAttribute("autocomplete", "tel");
    expect(screen.getByText("Test-only tel").parentElement).toHaveTextContent("(optional)");
    const lines = screen.getByLabelText(/^Test-only lines/);
    expect(lines.tagName).toBe("TEXTAREA");
    expect(lines).toBeRequired();
    for (const { name, autocomplete } of FIELDS)
      expect(document.querySelector(`form [name="${name}"]`), name).toHaveAttribute("autocomplete", autocomplete);
    expect(screen.getByLabelText(/^Project Details/)).not.toBeRequired();
  });

  it("shows an entry with options as a select of them, sends the one chosen (read with FormData), and empties it after success", async () => {
    vi.mocked(sendEnquiry).mockResolvedValue({ outcome: { status: "ok", id: "1" } } as never);
    render(
      <>
        <ContactForm {...props} />
        <ToastViewport />
      </>,
    );
    // The entry with options, as the (mocked) contract holds it; its label and placeholder as the content has them.
    const choice = (FIELDS as readonly FieldSpec[]).find((f) => f.options)! as FieldSpec & { options: readonly string[] };
    const text = (texts: object) => (texts as Record<string, string>)[choice.name];
    const select = screen.getByLabelText(new RegExp(`^${text(contactForm.labels)}`));
    expect(select.tagName).toBe("SELECT");
    expect(select).not.toBeRequired();
    expect([...(select as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      text(contactForm.placeholders),
      ...choice.options,
    ]);
    expect(select).toHaveValue("");
    for (const { name, required } of FIELDS)
      if (required)
        fireEvent.change(document.querySelector(`form [name="${name}"]`)!, {
          target: { value: name === "email" ? "ada@example.com" : "Ada" },
        });
    fireEvent.change(select, { target: { value: choice.options.at(-1) } });
    fireEvent.submit(select.closest("form")!);
    expect(await screen.findByText(toasts.success.text)).toBeInTheDocument();
    expect(vi.mocked(sendEnquiry).mock.calls[0]![1]).toMatchObject({ [choice.name]: choice.options.at(-1) });
    expect(select).toHaveValue("");
    expect(
      [...(select as HTMLSelectElement).options].map((o) => o.defaultSelected),
      "Back brings no choice back",
    ).toEqual([true, ...choice.options.map(() => false)]);
  });
});
