/**
 * Where a toast goes so that it covers none of the fields of the form it speaks about: under the
 * header, unless that would cover one of them (the visitor is looking at the form they just sent:
 * at 360 px its top fields sit right there), then at the bottom of the screen; where both would, the
 * side that covers less. A toast never takes taps meant for what is under it (Toasts.css.ts).
 */
export type Placement = "top-center" | "bottom-center";

type Box = { top: number; bottom: number; left: number; right: number };

/** Vertical pixels of `fields` that a toast of `size` would cover at `top` (centred, as the toasts are). */
function covered(fields: Box[], size: { width: number; height: number }, top: number, viewportWidth: number) {
  const left = (viewportWidth - size.width) / 2;
  let pixels = 0;
  for (const box of fields) {
    if (box.right <= left || box.left >= left + size.width) continue;
    pixels += Math.max(0, Math.min(box.bottom, top + size.height) - Math.max(box.top, top));
  }
  return pixels;
}

export function placeToast({
  fields,
  size,
  viewport,
  topEdge,
  bottomEdge,
}: {
  /** The boxes of the fields to keep uncovered, as on screen (getBoundingClientRect). */
  fields: Box[];
  size: { width: number; height: number };
  viewport: { width: number; height: number };
  /** Where a toast at the top starts (below the fixed header), and where one at the bottom ends. */
  topEdge: number;
  bottomEdge: number;
}): Placement {
  const atTop = covered(fields, size, topEdge, viewport.width);
  if (atTop === 0) return "top-center";
  return covered(fields, size, viewport.height - bottomEdge - size.height, viewport.width) < atTop ? "bottom-center" : "top-center";
}
