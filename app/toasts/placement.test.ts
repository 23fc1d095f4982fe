import { describe, expect, it } from "vitest";
import { placeToast } from "./placement";

// A 360 × 780 phone, a toast 328 × 156 under a 64 px header.
const phone = { size: { width: 328, height: 156 }, viewport: { width: 360, height: 780 }, topEdge: 72, bottomEdge: 16 };
const field = (top: number, bottom: number, left = 42, right = 318) => ({ top, bottom, left, right });

describe("where a toast goes", () => {
  it("under the header when no field is there", () => {
    expect(placeToast({ ...phone, fields: [field(300, 344), field(400, 444)] })).toBe("top-center");
  });

  it("at the bottom when a field is under the header and none at the bottom (the form just sent, at 360 px)", () => {
    expect(placeToast({ ...phone, fields: [field(73, 117), field(160, 204), field(246, 392)] })).toBe("bottom-center");
  });

  it("on the side that covers less when the form fills the screen", () => {
    const fields = [field(80, 124), field(200, 600), field(700, 744)];
    expect(placeToast({ ...phone, fields })).toBe("bottom-center"); // 44 + 28 px at the top, 44 + 0 at the bottom
    expect(placeToast({ ...phone, fields: [field(200, 230), field(560, 744)] })).toBe("top-center");
  });

  it("ignores fields beside the toast (a wide screen with the form in its left column)", () => {
    const desktop = { size: { width: 416, height: 110 }, viewport: { width: 1440, height: 900 }, topEdge: 72, bottomEdge: 16 };
    expect(placeToast({ ...desktop, fields: [field(100, 144, 200, 500)] })).toBe("top-center");
    expect(placeToast({ ...desktop, fields: [field(100, 144, 200, 800)] })).toBe("bottom-center");
  });
});
