import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CLEARANCE, placeToast, scrollAbove, stepAside } from "./placement";

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
  });

  it("never scrolls Send, or the field with focus, up under the header: on a screen too small for both, they stay in sight", () => {
    const fields = [field(80, 124), field(200, 600), field(640, 744)];
    // Send's top may rise from 640 to the header's 72 at most; the focused field's from 200.
    expect(placeToast({ ...phone, fields, size: { width: 328, height: 600 } }).scrollBy).toBe(640 - 72);
    expect(placeToast({ ...phone, fields, size: { width: 328, height: 600 }, focused: fields[1] }).scrollBy).toBe(200 - 72);
    // Already under the header: no scroll at all.
    expect(scrollAbove({ fields, toastTop: 608, topEdge: 72, focused: field(40, 70) })).toBe(0);
  });

  it("measured again once the toast is on screen: as far as the form's last field now needs", () => {
    // Send grew from one line to two as "Sending..." became "Send Message" again.
    expect(scrollAbove({ fields: [field(100, 144), field(360, 420)], toastTop: 400, topEdge: 72 })).toBe(420 - (400 - CLEARANCE));
    expect(scrollAbove({ fields: [field(100, 144), field(300, 340)], toastTop: 400, topEdge: 72 })).toBe(0);
    expect(scrollAbove({ fields: [], toastTop: 400, topEdge: 72 })).toBe(0);
  });

  it("ignores fields beside the toast (a wide screen with the form in its left column)", () => {
    const desktop = { size: { width: 416, height: 110 }, viewport: { width: 1440, height: 900 }, topEdge: 72, bottomEdge: 16 };
    expect(placeToast({ ...desktop, fields: [field(100, 144, 200, 500)] })).toEqual(at("top-center"));
    expect(placeToast({ ...desktop, fields: [field(100, 144, 200, 800)] })).toEqual(at("bottom-center"));
  });

  it("for any form, screen and toast: no field is covered once the page has scrolled where the room allows it, and Send and the focused field never go under the header", () => {
    const forms = fc.record({
      heights: fc.array(fc.tuple(fc.integer({ min: 20, max: 200 }), fc.integer({ min: 4, max: 40 })), { minLength: 1, maxLength: 8 }),
      start: fc.integer({ min: -3000, max: 3000 }),
      focus: fc.option(fc.nat(), { nil: undefined }),
    });
    const screens = fc.record({
      width: fc.integer({ min: 180, max: 1440 }),
      height: fc.integer({ min: 180, max: 1200 }),
      header: fc.integer({ min: 40, max: 120 }),
      toastHeight: fc.integer({ min: 60, max: 400 }),
    });
    fc.assert(
      fc.property(forms, screens, ({ heights, start, focus }, screen) => {
        let top = start;
        const fields = heights.map(([height, gap]) => {
          const box = field(top, top + height, 0, screen.width);
          top += height + gap;
          return box;
        });
        const focused = focus === undefined ? undefined : fields[focus % fields.length];
        const size = { width: Math.min(416, screen.width - 32), height: screen.toastHeight };
        const viewport = { width: screen.width, height: screen.height };
        const topEdge = screen.header + 8;
        const { position, scrollBy } = placeToast({ fields, size, viewport, topEdge, bottomEdge: 16, focused });
        const toastTop = position === "top-center" ? topEdge : screen.height - 16 - size.height;
        const moved = (box: { top: number; bottom: number }) => ({ top: box.top - scrollBy, bottom: box.bottom - scrollBy });
        const send = fields.at(-1)!;
        // Never up under the header, unless it was there already.
        for (const kept of [send, focused]) if (kept && kept.top >= topEdge) expect(moved(kept).top).toBeGreaterThanOrEqual(topEdge);
        expect(scrollBy).toBeGreaterThanOrEqual(0);
        // Where Send fits between the header and the toast, and the focused field stays below the header, nothing on screen is covered.
        const fits =
          send.bottom - send.top <= toastTop - CLEARANCE - topEdge && send.top >= topEdge && (!focused || focused.top >= topEdge);
        const room = Math.min(send.top, focused?.top ?? Infinity) - topEdge;
        const needed = send.bottom - (toastTop - CLEARANCE);
        if (fits && room >= needed) {
          const covered = fields
            .map(moved)
            .filter((box) => box.bottom > 0 && box.top < screen.height)
            .filter((box) => box.bottom > toastTop && box.top < toastTop + size.height);
          expect(covered).toEqual([]);
        }
      }),
    );
  });
});

describe("the field the visitor moves to steps clear of the toast on screen", () => {
  // 180 CSS px (a 360 px phone at 200 %): a toast taking the screen's lower half, as measured.
  const zoomed = { toast: field(195, 374, 8, 172), topEdge: 60, viewportHeight: 390 };

  it("a field under a toast at the bottom goes to just above it; one clear of it stays", () => {
    expect(stepAside({ ...zoomed, field: field(300, 346, 8, 172) })).toBe(346 - (195 - CLEARANCE));
    expect(stepAside({ ...zoomed, field: field(100, 146, 8, 172) })).toBe(0);
    // Beside the toast (a wide screen): nothing to do.
    expect(stepAside({ ...zoomed, field: field(300, 346, 180, 400) })).toBe(0);
  });

  it("under a toast at the top, a field goes to just below it; one taller than the room left shows its top", () => {
    const top = { toast: field(60, 180, 8, 172), topEdge: 60, viewportHeight: 390 };
    expect(stepAside({ ...top, field: field(150, 196, 8, 172) })).toBe(150 - (180 + CLEARANCE));
    expect(stepAside({ ...zoomed, field: field(250, 500, 8, 172) })).toBe(250 - 60);
  });

  it("for any field, toast and screen: clear of the toast after the scroll, or its top at the top of the larger room left", () => {
    const boxes = fc.record({
      fieldTop: fc.integer({ min: -500, max: 1500 }),
      fieldHeight: fc.integer({ min: 20, max: 400 }),
      toastTop: fc.integer({ min: 40, max: 1000 }),
      toastHeight: fc.integer({ min: 40, max: 500 }),
      topEdge: fc.integer({ min: 0, max: 120 }),
      viewportHeight: fc.integer({ min: 180, max: 1200 }),
    });
    fc.assert(
      fc.property(boxes, ({ fieldTop, fieldHeight, toastTop, toastHeight, topEdge, viewportHeight }) => {
        fc.pre(toastTop >= topEdge && toastTop + toastHeight <= viewportHeight);
        const toast = field(toastTop, toastTop + toastHeight);
        const before = field(fieldTop, fieldTop + fieldHeight);
        const by = stepAside({ field: before, toast, topEdge, viewportHeight });
        const after = { top: before.top - by, bottom: before.bottom - by };
        const overlapped = before.bottom > toast.top && before.top < toast.bottom;
        if (!overlapped) {
          expect(by).toBe(0);
          return;
        }
        const bands = [
          { top: topEdge, bottom: toast.top - CLEARANCE },
          { top: toast.bottom + CLEARANCE, bottom: viewportHeight },
        ];
        const within = (band: { top: number; bottom: number }) => after.top >= band.top - 1 && after.bottom <= band.bottom + 1;
        if (bands.some((band) => band.bottom - band.top >= fieldHeight)) expect(bands.some(within)).toBe(true);
        else {
          const larger = bands.reduce((a, b) => (b.bottom - b.top > a.bottom - a.top ? b : a));
          expect(Math.abs(after.top - larger.top)).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});
