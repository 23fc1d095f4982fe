import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CLEARANCE, placeToast, scrollAbove } from "./placement";

// A 360 × 780 phone, a toast 328 × 156 under a 64 px header.
const phone = { size: { width: 328, height: 156 }, viewport: { width: 360, height: 780 }, topEdge: 72, bottomEdge: 16 };
const field = (top: number, bottom: number, left = 42, right = 318) => ({ top, bottom, left, right });
const at = (position: string) => ({ position, scrollBy: 0 });

describe("where a toast goes", () => {
  it("under the header when no field is there", () => {
    expect(placeToast({ ...phone, fields: [field(300, 344), field(400, 444)] })).toEqual(at("top-center"));
  });

  it("at the bottom when a field is under the header and none at the bottom (the form just sent, at 360 px)", () => {
    expect(placeToast({ ...phone, fields: [field(73, 117), field(160, 204), field(246, 392)] })).toEqual(at("bottom-center"));
  });

  it("when the form fills the screen: at the bottom, the page scrolled so that the last field ends just above it", () => {
    const fields = [field(80, 124), field(200, 600), field(700, 744)];
    // The toast's top at the bottom: 780 - 16 - 156 = 608; the last field ends at 744.
    expect(placeToast({ ...phone, fields })).toEqual({ position: "bottom-center", scrollBy: 744 - (608 - CLEARANCE) });
    // (Always down: a field that the toast at the bottom would cover ends below the toast's top.)
  });

  it("measured again once the toast is on screen: as far as the form's last field now needs, never back up", () => {
    // Send grew from one line to two as "Sending..." became "Send Message" again.
    expect(scrollAbove([field(100, 144), field(360, 420)], 400)).toBe(420 - (400 - CLEARANCE));
    expect(scrollAbove([field(100, 144), field(300, 340)], 400)).toBe(0);
    expect(scrollAbove([], 400)).toBe(0);
  });

  it("ignores fields beside the toast (a wide screen with the form in its left column)", () => {
    const desktop = { size: { width: 416, height: 110 }, viewport: { width: 1440, height: 900 }, topEdge: 72, bottomEdge: 16 };
    expect(placeToast({ ...desktop, fields: [field(100, 144, 200, 500)] })).toEqual(at("top-center"));
    expect(placeToast({ ...desktop, fields: [field(100, 144, 200, 800)] })).toEqual(at("bottom-center"));
  });

  it("covers no field once the page has scrolled, wherever the form is and however tall the toast (a page that can scroll)", () => {
    const arbitraryForm = fc
      .array(fc.tuple(fc.integer({ min: 20, max: 200 }), fc.integer({ min: 4, max: 40 })), { minLength: 1, maxLength: 8 })
      .chain((heights) => fc.record({ heights: fc.constant(heights), start: fc.integer({ min: -3000, max: 3000 }) }));
    const screens = fc.record({
      width: fc.integer({ min: 180, max: 1440 }),
      height: fc.integer({ min: 300, max: 1200 }),
      toastHeight: fc.integer({ min: 60, max: 240 }),
    });
    fc.assert(
      fc.property(arbitraryForm, screens, ({ heights, start }, screen) => {
        let top = start;
        const fields = heights.map(([height, gap]) => {
          const box = field(top, top + height, 0, screen.width);
          top += height + gap;
          return box;
        });
        const size = { width: Math.min(416, screen.width - 32), height: screen.toastHeight };
        const viewport = { width: screen.width, height: screen.height };
        const { position, scrollBy } = placeToast({ fields, size, viewport, topEdge: 72, bottomEdge: 16 });
        const toastTop = position === "top-center" ? 72 : screen.height - 16 - size.height;
        const onScreenAfter = fields
          .map((box) => ({ ...box, top: box.top - scrollBy, bottom: box.bottom - scrollBy }))
          .filter((box) => box.bottom > 0 && box.top < screen.height);
        return onScreenAfter.every((box) => box.bottom <= toastTop || box.top >= toastTop + size.height);
      }),
    );
  });
});
