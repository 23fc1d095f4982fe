import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyText, unseenText } from "../../../tests/unicode";
import { studioNotification } from "../send-contact-email/emails";
import {
  characterCount,
  emptyMessage,
  FIELD_LIMITS,
  FIELD_SPECS,
  firstInvalidField,
  hasRequiredFields,
  isBlank,
  FIELDS,
  isIdempotencyKey,
  MAX_BODY_BYTES,
  MAX_EMAIL_LENGTH,
  neutralize,
  normalizeEmail,
  parseContactMessage,
  REQUIRED_FIELDS,
} from "./contact-message";

// Every field of the contract (optional ones blank), with the required ones filled in.
const valid = { ...emptyMessage(), name: " Ada ", email: "ada@example.com", projectTitle: "EP", projectDetails: "" };

/** An address of `length` characters: a 64-character local part and 63-character labels. */
const longestAddress = (length: number) =>
  `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(length - 64 - 1 - 128 - 4)}.com`;

describe("the contact message contract", () => {
  it("accepts a valid message, trimmed, with details optional", () => {
    expect(parseContactMessage(valid)).toEqual({
      ok: true,
      message: { ...valid, name: "Ada" },
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

  it.each([
    "ada",
    "ada@",
    "@example.com",
    "ada@example",
    "a b@example.com",
    "ada@exa mple.com",
    "<a@b.co>",
    // What mail servers refuse: dots out of place, empty labels, hyphens at label edges, too long.
    "ada.@example.com",
    ".ada@example.com",
    "ada..lovelace@example.com",
    "ada@example.com.",
    "ada@example..com",
    "ada@-example.com",
    "ada@example-.com",
    "ada@.example.com",
    `${"a".repeat(65)}@example.com`,
    `ada@${"a".repeat(64)}.com`,
    `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`,
    "ada@1.2.3.4",
    "ada@[1.2.3.4]",
    '"ada lovelace"@example.com',
    "ada@example.c",
    "ada@@example.com",
    "ada@exa_mple.com",
    // Local parts a mail client would decode as an RFC 2047 encoded word (into a line break and a Bcc).
    "=?UTF-8?Q?x=0D=0ABcc=3A_y=40evil=2Eexample?=@example.com",
    "=?utf-8?b?QmNj?=@example.com",
    "a=?b@example.com",
    "a?=b@example.com",
  ])("rejects the e-mail %j", (email) => {
    expect(parseContactMessage({ ...valid, email })).toMatchObject({ ok: false, fieldErrors: { email: expect.any(String) } });
  });

  it.each([
    "ada@example.com",
    "Ada.Lovelace+studio@mail.example.co.uk",
    "o'brien@example.ie",
    "ada@xn--bcher-kva.example",
    "ada@sub-domain.example.museum",
  ])("accepts the e-mail %j", (email) => {
    expect(parseContactMessage({ ...valid, email })).toMatchObject({ ok: true, message: { email } });
  });

  it.each([
    ["ada@bücher.example", "ada@xn--bcher-kva.example"],
    ["ada@ｅxample.com", "ada@example.com"],
    ["ada@exa\u00ADmple.com", "ada@example.com"],
    ["Ada@EXAMPLE.com", "Ada@example.com"],
    ["ada@Bu\u0308cher.example", "ada@xn--bcher-kva.example"],
  ])("stores and sends %j as %j: the domain's one ASCII form", (typed, stored) => {
    expect(parseContactMessage({ ...valid, email: typed })).toEqual({ ok: true, message: { ...valid, name: "Ada", email: stored } });
  });

  it("any address is either refused or normalised to an ASCII address within the one length limit, and normalising it again changes nothing", () => {
    const local = fc.stringMatching(/^[A-Za-z0-9.+=?_-]{1,70}$/);
    const domain = fc.oneof(
      fc.domain(),
      fc.string({ maxLength: 30 }),
      fc.constantFrom("bücher.example", "ｅxample.com", "exa\u00ADmple.com", "例え.テスト"),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(local, domain).map(([l, d]) => `${l}@${d}`),
          fc.emailAddress(),
          fc.string(),
        ),
        (address) => {
          const normalized = normalizeEmail(address);
          if (normalized === null) return;
          expect(normalized).toMatch(/^[\x21-\x7e]+@[a-z0-9.-]+$/);
          expect(normalized.length).toBeLessThanOrEqual(MAX_EMAIL_LENGTH);
          expect(normalized).not.toMatch(/=\?|\?=/);
          expect(normalizeEmail(normalized)).toBe(normalized);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("counts characters a person sees (code points), not UTF-16 units", () => {
    expect(parseContactMessage({ ...valid, name: "🎤".repeat(100) }).ok).toBe(true);
    expect(parseContactMessage({ ...valid, name: "🎤".repeat(101) }).ok).toBe(false);
    expect(characterCount("🎤é")).toBe(2);
  });

  it("enforces each length limit", () => {
    // The longest address (RFC 5321): a 64-octet local part and a 189-octet domain, 254 in all.
    const longestEmail = (extra: string) => `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}${extra}.com`;
    expect(longestEmail("")).toHaveLength(FIELD_LIMITS.email);
    for (const [field, limit] of Object.entries(FIELD_LIMITS)) {
      const value = field === "email" ? longestEmail("") : "a".repeat(limit);
      expect(parseContactMessage({ ...valid, [field]: value }).ok, field).toBe(true);
      const over = field === "email" ? longestEmail("d") : "a".repeat(limit + 1);
      expect(parseContactMessage({ ...valid, [field]: over }).ok, field).toBe(false);
    }
  });

  it("refuses line breaks in single-line fields but allows them in the details", () => {
    expect(parseContactMessage({ ...valid, name: "Ada\nBcc: x@y.z" }).ok).toBe(false);
    expect(parseContactMessage({ ...valid, projectTitle: "EP\r\n" + "x" }).ok).toBe(false);
    expect(parseContactMessage({ ...valid, projectDetails: "line one\nline two" }).ok).toBe(true);
  });

  it("gives the same message one text whichever path sent it: CRLF or CR line breaks as LF, composed (NFC)", () => {
    const posted = parseContactMessage({ ...valid, name: "Zoe\u0308", projectDetails: "line one\r\nline two\rthree" });
    const scripted = parseContactMessage({ ...valid, name: "Zo\u00eb", projectDetails: "line one\nline two\nthree" });
    expect(posted).toEqual(scripted);
    expect(posted.ok && posted.message.projectDetails).toBe("line one\nline two\nthree");
    // A line break is one character against the limit, from either path.
    const full = "x\r\n".repeat(FIELD_LIMITS.projectDetails / 2);
    expect(parseContactMessage({ ...valid, projectDetails: full }).ok).toBe(true);
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite" }), fc.constantFrom("\r\n", "\r"), (words, lineBreak) => {
        const one = parseContactMessage({ ...valid, projectDetails: `${words}\n${words}` });
        const other = parseContactMessage({ ...valid, projectDetails: `${words.normalize("NFD")}${lineBreak}${words}` });
        expect(other).toEqual(one);
      }),
    );
  });

  it("refuses control characters and non-text values, and ignores unknown fields", () => {
    expect(parseContactMessage({ ...valid, projectDetails: "bell\u0007" }).ok).toBe(false);
    expect(parseContactMessage({ ...valid, name: 42 }).ok).toBe(false);
    expect(parseContactMessage({ ...valid, admin: true })).toMatchObject({ ok: true, message: { name: "Ada" } });
    expect(parseContactMessage(null).ok).toBe(false);
  });

  it("refuses half a UTF-16 pair (it cannot be stored as UTF-8), and whatever it accepts is well-formed text", () => {
    expect(parseContactMessage(JSON.parse('{"name":"a\\ud800b","email":"ada@lakeshoresound.ca","projectTitle":"T"}')).ok).toBe(false);
    expect(parseContactMessage({ ...valid, projectTitle: "T\udfff" }).ok).toBe(false);
    expect(parseContactMessage({ ...valid, projectTitle: "Drums 🥁" }).ok).toBe(true);
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 40 }),
        fc.constantFrom("name", "projectTitle", "projectDetails"),
        (text, field) => {
          const result = parseContactMessage({ ...valid, [field]: `x${text}` });
          if (result.ok)
            expect(new TextDecoder().decode(new TextEncoder().encode(result.message[field as "name"]))).toBe(
              result.message[field as "name"],
            );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("points at the first invalid field in form order", () => {
    expect(firstInvalidField({ projectTitle: "x", email: "y" })).toBe("email");
    expect(firstInvalidField({})).toBeUndefined();
  });

  it("the message itself is the visitor's to send once: the browser neither offers it nor brings it back on Back (autocomplete off)", () => {
    // Without JavaScript, Back from the result page shows the form the visitor sent from (decision 027).
    expect(FIELD_SPECS.projectTitle.autocomplete).toBe("off");
    expect(FIELD_SPECS.projectDetails.autocomplete).toBe("off");
  });

  it("the largest valid message, in the widest characters, fits the function's body cap as JSON", () => {
    // Each field at its limit: four-byte characters (an emoji), and the details in tabs, JSON's escapes.
    for (const wide of ["\u{1F3B8}", "\t", '"']) {
      const message = Object.fromEntries(
        FIELDS.map((f) => [
          f.name,
          f.name === "email" ? longestAddress(f.limit) : (f.lines === "many" ? wide : "\u{1F3B8}").repeat(f.limit),
        ]),
      );
      expect(parseContactMessage(message).ok, wide).toBe(true);
      expect(new TextEncoder().encode(JSON.stringify(message)).length).toBeLessThanOrEqual(MAX_BODY_BYTES);
    }
  });

  it("recognises idempotency keys", () => {
    expect(isIdempotencyKey("0b7c1f38-3f7e-4b43-9a43-2f0a8f1c2d3e")).toBe(true);
    expect(isIdempotencyKey("nope")).toBe(false);
  });
});

const valid2 = { name: "Ada", email: "ada@example.com", projectTitle: "EP", projectDetails: "" };

describe("empty and one line mean what a reader sees (the mails' cleaning, decision 002)", () => {
  it("a required field a reader would see nothing in is missing: the browser's check stops the send, the parser says it is required", () => {
    fc.assert(
      fc.property(fc.constantFrom(...REQUIRED_FIELDS), unseenText, (field, value) => {
        const values = { ...valid2, [field]: value };
        expect(isBlank(value)).toBe(true);
        expect(hasRequiredFields(values)).toBe(false);
        const result = parseContactMessage(values);
        expect(result.ok).toBe(false);
        expect(!result.ok && result.fieldErrors[field]).toMatch(/is required\.$/);
      }),
      { numRuns: 500 },
    );
  });

  it("whatever name and project title it accepts, the studio sees a non-empty, single-line value", () => {
    fc.assert(
      fc.property(anyText, anyText, (name, projectTitle) => {
        const result = parseContactMessage({ ...valid2, name, projectTitle });
        if (!result.ok) return;
        for (const value of [result.message.name, result.message.projectTitle]) {
          const seen = neutralize(value);
          expect(seen).not.toBe("");
          expect(seen).not.toMatch(/[\n\r\u2028\u2029\u0085\t]/);
        }
        const mail = studioNotification(result.message, { studioInbox: "studio@example.com", enquiryId: "e1" });
        expect(mail.text).toContain(`\nName: ${neutralize(result.message.name)}\n`);
        expect(mail.text).toMatch(/\nName: \S.*\nEmail: /);
        expect(mail.text).toMatch(/\nProject title: \S.*\n/);
      }),
      { numRuns: 1000 },
    );
  });

  it("a single-line field refuses every line break and every control, a tab included; the details keep tabs and line breaks", () => {
    for (const mark of ["\t", "\n", "\r", "\v", "\f", "\u0085", "\u2028", "\u2029", "\u0000", "\u001b", "\u007f", "\u009b"]) {
      for (const field of ["name", "projectTitle"] as const) {
        const result = parseContactMessage({ ...valid2, [field]: `Ada${mark}Lovelace` });
        expect(result.ok, JSON.stringify({ field, mark })).toBe(false);
      }
    }
    expect(parseContactMessage({ ...valid2, projectDetails: "Two songs:\n\t1. Intro\n\t2. Outro" }).ok).toBe(true);
    expect(parseContactMessage({ ...valid2, projectDetails: "Two\u000bsongs" }).ok).toBe(false);
  });

  it("details a reader would see nothing in are left out, not stored as invisible text", () => {
    fc.assert(
      fc.property(unseenText, (projectDetails) => {
        const result = parseContactMessage({ ...valid2, projectDetails });
        // Refused only for a character no field takes (a control); otherwise accepted, with no details.
        if (result.ok) expect(result.message.projectDetails).toBe("");
        else expect(Object.keys(result.fieldErrors)).toEqual(["projectDetails"]);
      }),
      { numRuns: 300 },
    );
  });

  it("a character newer than this runtime's Unicode counts as something to read, so every runtime decides alike", () => {
    // U+20C1 (Saudi riyal sign, Unicode 17), Kirat Rai (Unicode 16): letters to Node 20, unknown to the edge runtime's Deno.
    for (const name of ["\u20C1", "\u{16D43}\u{16D4A}\u{16D4C}", "\u0378"]) {
      expect(isBlank(name), name).toBe(false);
      expect(neutralize(`Album ${name}`)).toBe(`Album ${name}`);
    }
  });

  it("a name with something to read keeps its marks, joiners and spaces between words", () => {
    expect(parseContactMessage({ ...valid2, name: "Zoë\u200D Ng" })).toMatchObject({ ok: true, message: { name: "Zoë\u200D Ng" } });
    expect(isBlank("\u0301\u20DD")).toBe(true);
    expect(isBlank("e\u0301")).toBe(false);
    expect(isBlank("\u3164\u200B\u3000")).toBe(true);
    expect(isBlank("\uFFFC\uFFFC")).toBe(true);
    expect(isBlank("-")).toBe(false);
  });
});
