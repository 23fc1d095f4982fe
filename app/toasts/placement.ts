/**
 * Where a toast goes so that it covers none of the fields of the form it speaks about: under the
 * header, unless that would cover one of them (the visitor is looking at the form they just sent:
 * at 360 px its top fields sit right there), then at the bottom of the screen. Where both would (a
 * small screen, or 200 % zoom: the form fills it), at the bottom, with the page scrolled so that the
 * form's last control (Send) sits just above the toast: every field on screen is then clear of it,
 * and the visitor's next step is in sight. The scroll never takes Send, or the field that has focus,
 * up under the header: where the screen is too small for both, they stay in sight and the toast
 * covers what it must. A toast never takes taps meant for what is under it (Toasts.css.ts), and while
 * it is on screen, the field the visitor moves to steps clear of it (stepAside), by whatever hand.
 */
export type Placement = {
  position: "top-center" | "bottom-center";
  /** Pixels to scroll the page down by as the toast shows; 0 where it covers nothing as it is. */
  scrollBy: number;
};

type Box = { top: number; bottom: number; left: number; right: number };

/** Room left between the form's last control and a toast below it. */
export const CLEARANCE = 8;

/** The fields of `fields` that a toast of `size` would cover horizontally (centred, as the toasts are). */
function inColumn(fields: Box[], size: { width: number }, viewportWidth: number) {
  const left = (viewportWidth - size.width) / 2;
  return fields.filter((box) => box.right > left && box.left < left + size.width);
}

/** Whether a toast of `height` at `top` would cover any of `fields`. */
function covers(fields: Box[], height: number, top: number) {
  return fields.some((box) => box.bottom > top && box.top < top + height);
}

/** What placing a toast needs to know of the page. */
export type Layout = {
  /** The boxes of the fields to keep uncovered, as on screen (getBoundingClientRect). */
  fields: Box[];
  size: { width: number; height: number };
  viewport: { width: number; height: number };
  /** Where a toast at the top starts (below the fixed header), and where one at the bottom ends. */
  topEdge: number;
  bottomEdge: number;
  /** The field with focus, if it is one of them: never scrolled under the header. */
  focused?: Box;
};

export function placeToast(layout: Layout): Placement {
  const { fields, size, viewport, topEdge, bottomEdge } = layout;
  const below = inColumn(fields, size, viewport.width);
  if (!covers(below, size.height, topEdge)) return { position: "top-center", scrollBy: 0 };
  if (!covers(below, size.height, viewport.height - bottomEdge - size.height)) return { position: "bottom-center", scrollBy: 0 };
  return { position: "bottom-center", scrollBy: scrollAtBottom(layout) };
}

/**
 * For a toast at the bottom: how far to scroll the page down so that the form's last field clears
 * it (scrollAbove). The page asks again once the toast is on screen and the form has settled: a
 * Send that reads "Sending..." on one line becomes "Send Message" on two as the toast shows.
 */
export function scrollAtBottom({ fields, size, viewport, topEdge, bottomEdge, focused }: Layout) {
  return scrollAbove({
    fields: inColumn(fields, size, viewport.width),
    toastTop: viewport.height - bottomEdge - size.height,
    topEdge,
    focused,
  });
}

/**
 * How far to scroll the page down so that the lowest of `fields` (Send) ends just above a toast whose
 * top is at `toastTop`; 0 when it already does. Never so far that Send's top, or the `focused` field's,
 * goes above `topEdge` (under the header).
 */
export function scrollAbove({ fields, toastTop, topEdge, focused }: { fields: Box[]; toastTop: number; topEdge: number; focused?: Box }) {
  if (fields.length === 0) return 0;
  const last = fields.reduce((lowest, box) => (box.bottom > lowest.bottom ? box : lowest));
  const needed = last.bottom - (toastTop - CLEARANCE);
  const room = Math.min(last.top, focused?.top ?? Infinity) - topEdge;
  return Math.max(0, Math.min(Math.ceil(needed), Math.floor(room)));
}

/**
 * How far to scroll the page so that the `field` with focus is clear of the `toast` on screen; 0 when
 * it already is. The field goes into the band of screen the toast leaves, above it (below the header,
 * from `topEdge`) or below it, whichever takes the smaller scroll; with its top first where it is taller
 * than both (its start, where the visitor types, in sight).
 */
export function stepAside({ field, toast, topEdge, viewportHeight }: { field: Box; toast: Box; topEdge: number; viewportHeight: number }) {
  const apart = field.bottom <= toast.top || field.top >= toast.bottom || field.right <= toast.left || field.left >= toast.right;
  if (apart) return 0;
  const bands = [
    { top: topEdge, bottom: toast.top - CLEARANCE },
    { top: toast.bottom + CLEARANCE, bottom: viewportHeight },
  ].filter((band) => band.bottom > band.top);
  const height = field.bottom - field.top;
  const into = (band: { top: number; bottom: number }) =>
    height > band.bottom - band.top || field.top < band.top ? field.top - band.top : Math.max(0, field.bottom - band.bottom);
  const fitting = bands.filter((band) => band.bottom - band.top >= height);
  const choices = fitting.length ? fitting : bands.sort((a, b) => b.bottom - b.top - (a.bottom - a.top)).slice(0, 1);
  if (choices.length === 0) return 0;
  const by = choices.map(into).reduce((best, by) => (Math.abs(by) < Math.abs(best) ? by : best));
  return Math.round(by);
}
