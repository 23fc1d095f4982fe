// The form draws its fields from the contract's entries alone (docs/decisions/022): a new entry shows up
// in its place, optional or required, one line or many, with its type and autocomplete, and no edit here.
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type * as Contract from "#shared/contact-message.ts";
import { FIELDS } from "#shared/contact-message.ts";
import { ContactForm } from "./ContactForm";

// Hoisted with the mocks that use it.
const EXTRA = vi.hoisted(() => [
  { name: "phone", label: "Phone", required: false, limit: 30, lines: "one", autocomplete: "tel", inputType: "tel" },
  { name: "budget", label: "Budget", required: true, limit: 50, lines: "many", autocomplete: "off", inputType: "text" },
]);

// The contract with two entries added after the address (its derived lists made again from FIELDS).
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
      labels: { ...real.contactForm.labels, phone: "Phone", budget: "Budget" },
      placeholders: { ...real.contactForm.placeholders, phone: "+1 416 555 0100", budget: "About" },
    },
  };
});
vi.mock("./send.client", () => ({ preloadSupabase: vi.fn(() => Promise.resolve()), sendEnquiry: vi.fn() }));

describe("the form's fields", () => {
  it("are the contract's entries, in their order, each as its entry says", () => {
    render(<ContactForm studioEmail="studio@example.com" publicEnv={{ supabaseUrl: "http://127.0.0.1:1", supabaseAnonKey: "k" }} />);
    const names = [...document.querySelectorAll<HTMLInputElement>("form [name]")].map((c) => c.name).filter((n) => n !== "website");
    expect(names).toEqual(["name", "email", "phone", "budget", "projectTitle", "projectDetails"]);
    const phone = screen.getByLabelText(/^Phone/);
    expect(phone).not.toBeRequired();
    expect(phone).toHaveAttribute("type", "tel");
    expect(phone).toHaveAttribute("autocomplete", "tel");
    expect(screen.getByText("Phone").parentElement).toHaveTextContent("(optional)");
    const budget = screen.getByLabelText(/^Budget/);
    expect(budget.tagName).toBe("TEXTAREA");
    expect(budget).toBeRequired();
    for (const { name, autocomplete } of FIELDS)
      expect(document.querySelector(`form [name="${name}"]`), name).toHaveAttribute("autocomplete", autocomplete);
    expect(screen.getByLabelText(/^Project Details/)).not.toBeRequired();
  });
});
