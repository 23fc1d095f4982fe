// @vitest-environment node
import { describe, expect, it } from "vitest";
import { isIdempotencyKey } from "../../supabase/functions/_shared/contact-message.ts";
import { clientAddress, derivedKey } from "./action.server";

const message = { name: "Ada", email: "ada@example.com", projectTitle: "EP", projectDetails: "" };
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

  it("takes the visitor's address from the hop the proxy appended, not from what the visitor sent", () => {
    const request = new Request("http://site/", { headers: { "x-forwarded-for": "1.1.1.1, 203.0.113.7" } });
    expect(clientAddress(request)).toBe("203.0.113.7");
    expect(clientAddress(new Request("http://site/"))).toBeUndefined();
  });
});
