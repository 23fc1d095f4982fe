import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isUtf8Type } from "./read-body";

describe("isUtf8Type", () => {
  it("accepts the media type with no charset or UTF-8 ones only, whatever the spelling", () => {
    expect(isUtf8Type("application/json", "application/json")).toBe(true);
    expect(isUtf8Type('Application/JSON; Charset="UTF-8"', "application/json")).toBe(true);
    expect(isUtf8Type("application/json; charset=utf-8; charset=latin1", "application/json")).toBe(false);
    expect(isUtf8Type("application/jsonx", "application/json")).toBe(false);
    for (const odd of ['charset="utf-8', "charset=utf-8=x", "charset*=utf-16''x", "charset"])
      expect(isUtf8Type(`application/json; ${odd}`, "application/json"), odd).toBe(false);
  });

  it("for any list of parameters: accepted exactly when every charset among them is UTF-8", () => {
    const charset = fc.constantFrom("utf-8", "UTF8", '"utf-8"', "latin1", "utf-16", "", "iso-8859-1");
    const parameter = fc.oneof(
      charset.map((value) => ({ text: `charset=${value}`, utf8: /^(utf-?8|"utf-?8")$/i.test(value) })),
      fc.constantFrom("boundary=x", "q=1", "").map((text) => ({ text, utf8: true })),
    );
    fc.assert(
      fc.property(fc.array(parameter, { maxLength: 4 }), (parameters) => {
        const type = ["application/json", ...parameters.map((p) => p.text)].join("; ");
        expect(isUtf8Type(type, "application/json")).toBe(parameters.every((p) => p.utf8));
      }),
    );
  });
});
