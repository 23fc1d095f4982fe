// @vitest-environment node
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emptyMessage, FIELDS, FORM_META_FIELDS, isIdempotencyKey } from "#shared/contact-message.ts";
import { CROSS_SITE_HEADER } from "~/server/front-door.server";
import { unseenText } from "../../tests/unicode";
import { answerEnquiryForm, derivedKey, MAX_FORM_BYTES, submitEnquiryForm } from "./action.server";
import { SENT_PAGE_TARGET } from "./outcome";

const message = { ...emptyMessage(), name: "Ada", email: "ada@example.com", projectTitle: "EP", projectDetails: "" };
const day = new Date("2026-11-23T10:00:00Z");

describe("the no-JS path's idempotency key, derived on the server", () => {
  it("is a UUID the function accepts, the same for the same post from the same visitor on the same day", () => {
    const key = derivedKey(message, "203.0.113.7", "secret", day);
    expect(isIdempotencyKey(key)).toBe(true);
    expect(derivedKey(message, "203.0.113.7", "secret", new Date("2026-11-23T23:59:00Z"))).toBe(key);
  });

  it("differs for another visitor, another message, another day", () => {
    const key = derivedKey(message, "203.0.113.7", "secret", day);
    expect(derivedKey(message, "203.0.113.8", "secret", day)).not.toBe(key);
    expect(derivedKey({ ...message, projectDetails: "x" }, "203.0.113.7", "secret", day)).not.toBe(key);
    expect(derivedKey(message, "203.0.113.7", "secret", new Date("2026-11-24T00:00:00Z"))).not.toBe(key);
  });
});

describe("the no-JS path", () => {
  const options = { supabaseUrl: "http://127.0.0.1:9", anonKey: "k", relaySecret: "r".repeat(32), bodyTimeoutMs: 1_000, timeoutMs: 500 };
  const post = (body: string, headers: Record<string, string> = {}) =>
    submitEnquiryForm(
      new Request("http://site/?index", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", [CROSS_SITE_HEADER]: "0", ...headers },
        body,
      }),
      options,
    );
  const form = "name=Ada&email=ada%40example.com&projectTitle=EP&projectDetails=";

  it("any honeypot value, in any bytes, gets the silent success a bot gets and calls nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 64 }), async (bytes) => {
        const encoded = [...bytes].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
        const { outcome, httpStatus } = await post(`${form}&website=${encoded}`);
        expect([outcome.status, httpStatus]).toEqual(["ok", 303]);
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a body that is not UTF-8, another charset, another type, and another site's post", async () => {
    expect((await post("name=Ad%FF&email=ada%40example.com&projectTitle=EP")).httpStatus).toBe(400);
    expect((await post(form, { "content-type": "application/x-www-form-urlencoded; charset=latin1" })).httpStatus).toBe(415);
    expect((await post(form, { "content-type": "application/x-www-form-urlencoded; charset=utf-8; charset=latin1" })).httpStatus).toBe(415);
    expect((await post(form, { "content-type": "multipart/form-data; boundary=x" })).httpStatus).toBe(415);
    expect((await post(form, { [CROSS_SITE_HEADER]: "1" })).httpStatus).toBe(403);
    for (const result of await Promise.all([post("name=Ad%FF"), post(form, { [CROSS_SITE_HEADER]: "1" })])) {
      expect(result.outcome.status).toBe("refused");
    }
  });

  it("reads percent-encoded UTF-8 and a charset=utf-8 type", async () => {
    const { outcome } = await post("name=Zo%C3%AB&email=&projectTitle=EP", {
      "content-type": "application/x-www-form-urlencoded; charset=UTF-8",
    });
    expect(outcome).toEqual({ status: "missing", values: { ...emptyMessage(), name: "Zoë", projectTitle: "EP" } });
  });

  it("a required field a reader would see nothing in is missing: the form comes back with the spec's notice, nothing is sent", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("name", "email", "projectTitle"), unseenText, async (field, value) => {
        const body = new URLSearchParams({ ...message, [field]: value }).toString();
        const { outcome, httpStatus } = await post(body);
        expect([outcome.status, httpStatus]).toEqual(["missing", 400]);
      }),
      { numRuns: 100 },
    );
  });
});

describe("the no-JS path's answer (Post/Redirect/Get, decision 027)", () => {
  const options = { supabaseUrl: "http://127.0.0.1:9", anonKey: "k", relaySecret: "r".repeat(32), bodyTimeoutMs: 1_000, timeoutMs: 500 };
  const answer = (body: string) =>
    answerEnquiryForm(
      new Request("http://site/?index", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", [CROSS_SITE_HEADER]: "0" },
        body,
      }),
      options,
    );

  it("a success (here the bot's silent one) is sent on to the result page with 303, which nothing may store", async () => {
    const response = await answer("name=Ada&email=ada%40example.com&projectTitle=EP&website=x");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(SENT_PAGE_TARGET);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("anything else is answered at once with its status and every value kept", async () => {
    const response = await answer("name=+&email=ada%40example.com&projectTitle=EP&projectDetails=Two+songs");
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.json()).toEqual({
      status: "missing",
      values: { ...emptyMessage(), name: " ", email: "ada@example.com", projectTitle: "EP", projectDetails: "Two songs" },
    });
  });
});

describe("the form body's size cap", () => {
  it("takes the largest valid message in four-byte characters, percent-encoded as a browser posts it", () => {
    const message = Object.fromEntries(
      FIELDS.map((f) => [f.name, f.name === "email" ? `${"a".repeat(64)}@example.com` : "\u{1F3B8}".repeat(f.limit)]),
    );
    const body = new URLSearchParams({ ...message, [FORM_META_FIELDS.trap]: "" }).toString();
    expect(body.length).toBeLessThanOrEqual(MAX_FORM_BYTES);
  });
});
