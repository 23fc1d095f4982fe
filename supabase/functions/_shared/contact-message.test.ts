import { describe, expect, it } from "vitest";
import { FIELD_LIMITS, firstInvalidField, hasRequiredFields, isIdempotencyKey, parseContactMessage } from "./contact-message";

const valid = { name: " Ada ", email: "ada@example.com", projectTitle: "EP", projectDetails: "" };

describe("the contact message contract", () => {
  it("accepts a valid message, trimmed, with details optional", () => {
    expect(parseContactMessage(valid)).toEqual({
      ok: true,
      message: { name: "Ada", email: "ada@example.com", projectTitle: "EP", projectDetails: "" },
    });
    expect(parseContactMessage({ ...valid, projectDetails: undefined }).ok).toBe(true);
  });

  it("requires name, email and project title after trimming", () => {
    expect(hasRequiredFields({ ...valid, name: "   " })).toBe(false);
    expect(hasRequiredFields(valid)).toBe(true);
    const result = parseContactMessage({ name: " ", email: "", projectTitle: "\t" });
    expect(result).toEqual({
      ok: false,
      fieldErrors: { name: "Name is required.", email: "Email is required.", projectTitle: "Project title is required." },
    });
  });

  it.each(["ada", "ada@", "@example.com", "ada@example", "a b@example.com", "ada@exa mple.com", "<a@b.co>"])(
    "rejects the e-mail %j",
    (email) => {
      expect(parseContactMessage({ ...valid, email })).toMatchObject({ ok: false, fieldErrors: { email: expect.any(String) } });
    },
  );

  it("enforces each length limit", () => {
    for (const [field, limit] of Object.entries(FIELD_LIMITS)) {
      const value = field === "email" ? `${"a".repeat(limit - 12)}@example.com` : "a".repeat(limit);
      expect(parseContactMessage({ ...valid, [field]: value }).ok, field).toBe(true);
      const over = field === "email" ? `${"a".repeat(limit - 11)}@example.com` : "a".repeat(limit + 1);
      expect(parseContactMessage({ ...valid, [field]: over }).ok, field).toBe(false);
    }
  });

  it("refuses line breaks in single-line fields but allows them in the details", () => {
    expect(parseContactMessage({ ...valid, name: "Ada\nBcc: x@y.z" }).ok).toBe(false);
    expect(parseContactMessage({ ...valid, projectTitle: "EP\r\n" + "x" }).ok).toBe(false);
    expect(parseContactMessage({ ...valid, projectDetails: "line one\nline two" }).ok).toBe(true);
  });

  it("refuses control characters and non-text values, and ignores unknown fields", () => {
    expect(parseContactMessage({ ...valid, projectDetails: "bell\u0007" }).ok).toBe(false);
    expect(parseContactMessage({ ...valid, name: 42 }).ok).toBe(false);
    expect(parseContactMessage({ ...valid, admin: true })).toMatchObject({ ok: true, message: { name: "Ada" } });
    expect(parseContactMessage(null).ok).toBe(false);
  });

  it("points at the first invalid field in form order", () => {
    expect(firstInvalidField({ projectTitle: "x", email: "y" })).toBe("email");
    expect(firstInvalidField({})).toBeUndefined();
  });

  it("recognises idempotency keys", () => {
    expect(isIdempotencyKey("0b7c1f38-3f7e-4b43-9a43-2f0a8f1c2d3e")).toBe(true);
    expect(isIdempotencyKey("nope")).toBe(false);
  });
});
