/** react-hot-toast and the toast markup; loaded on the first toast (see Toasts.tsx). */
import toast, { Toaster } from "react-hot-toast";
import { toasts as texts } from "~/content";
import { placeToast, scrollAtBottom, stepAside, type Placement } from "./placement";
import * as styles from "./Toasts.css";
import { TOAST_DURATION_MS, type Tone } from "./tone";

// Our own live region speaks each toast (see announce.ts); the toast's own is silenced so nothing is read twice.
const silent = { role: "status", "aria-live": "off" } as const;
// react-hot-toast keeps its toasts this far from the screen's edges.
const EDGE = 16;
const SUCCESS_ID = "success";

/** Shows a toast; with `avoid`, where it covers none of that form's fields (placement.ts). */
export function show(tone: Tone, title: string, text: React.ReactNode, plainText: string, avoid?: Element | null) {
  const { position, scrollBy } = avoid ? placement(avoid, tone, title, plainText) : { position: "top-center" as const, scrollBy: 0 };
  // One toast speaks about the form at a time: a newer outcome replaces the one before (errors stay
  // until dismissed, and two stacked at the bottom would lift the older one over the fields).
  if (avoid) toast.dismiss();
  const id = toast.custom(
    (t) => (
      <div className={styles.toast[tone]} data-tone={tone} data-toast={t.id}>
        <div className={styles.body}>
          <p className={styles.title}>{title}</p>
          <p className={styles.text}>{text}</p>
        </div>
        <button type="button" className={styles.dismiss} onClick={() => toast.dismiss(t.id)} aria-label={texts.dismiss}>
          ×
        </button>
      </div>
    ),
    // Errors stay until dismissed; a success fades (tone.ts), or goes when the visitor goes back to a
    // field of the form (Toasts.tsx: dismissSuccessToast).
    {
      // One success toast at a time, so that it can be dismissed by name.
      id: tone === "success" ? SUCCESS_ID : undefined,
      duration: TOAST_DURATION_MS[tone],
      ariaProps: silent,
      position,
    },
  );
  if (avoid && position === "bottom-center") bringAbove(avoid, id, scrollBy);
  if (avoid) keepFocusClear(avoid, id);
}

/** The toast on screen that speaks about a form, and that form. */
let speaking: { form: Element; id: string } | undefined;

/**
 * While the toast about `form` is on screen, a field of it that gets focus steps clear of the toast
 * (placement.ts, stepAside): the visitor going to the field a toast names, by a tap, Tab, a screen
 * reader or autofill, never types under it (WCAG 2.4.11). Checked once the browser has scrolled the
 * field into view itself, and again when the screen changes size (a phone's keyboard opening).
 */
function keepFocusClear(form: Element, id: string) {
  if (!speaking) {
    // Never between a press and its release: a page that moves under a pointer held down loses its
    // click (a press on Send's visible edge would focus it, scroll it away, and release elsewhere). A
    // focus that comes with a press is checked once the click it makes has been dispatched.
    let pressed = false;
    let pending = false;
    const run = () => requestAnimationFrame(() => speaking && clearFocus(speaking));
    const check = () => (pressed ? (pending = true) : run());
    const released = () => {
      pressed = false;
      if (pending) setTimeout(run, 50);
      pending = false;
    };
    document.addEventListener("pointerdown", () => (pressed = true), true);
    document.addEventListener("pointerup", released, true);
    document.addEventListener("pointercancel", released, true);
    document.addEventListener("focusin", check);
    addEventListener("resize", check);
    window.visualViewport?.addEventListener("resize", check);
  }
  speaking = { form, id };
}

function clearFocus({ form, id }: { form: Element; id: string }) {
  const shown = document.querySelector(`[data-toast="${CSS.escape(id)}"]`);
  const field = focusedIn(form);
  if (!shown || !field) return;
  const rack = shown.closest("[data-rht-toaster]");
  const by = stepAside({
    field,
    toast: shown.getBoundingClientRect(),
    topEdge: rack ? rack.getBoundingClientRect().top : 0,
    viewportHeight: innerHeight,
  });
  if (by !== 0) window.scrollBy({ top: by });
}

/**
 * The form fills the screen (a small one, or zoomed): its last control goes to just above the toast
 * at the bottom, measured once both are on screen as they will stay: from the next frame on, as soon
 * as the toast is laid out (the first toast mounts the rack), so that React has committed the form's
 * new state too. The toast's height, unlike its box, ignores its entrance. Not there within a
 * second: as measured on the copy. The page scrolls as its own rule says (at once: only a focused
 * link slides the page, app/styles/global.css.ts).
 */
function bringAbove(form: Element, id: string, measured: number) {
  let frames = 0;
  const step = () => {
    const shown = document.querySelector<HTMLElement>(`[data-toast="${CSS.escape(id)}"]`);
    if (!shown?.offsetHeight && ++frames < 60) return void requestAnimationFrame(step);
    const rack = shown?.closest("[data-rht-toaster]");
    const by = shown
      ? scrollAtBottom({
          fields: fieldBoxes(form),
          size: { width: shown.offsetWidth, height: shown.offsetHeight },
          viewport: viewport(),
          topEdge: rack ? rack.getBoundingClientRect().top : 0,
          bottomEdge: EDGE,
          focused: focusedIn(form),
        })
      : measured;
    if (by > 0) window.scrollBy({ top: by });
  };
  requestAnimationFrame(() => requestAnimationFrame(step));
}

const viewport = () => ({ width: document.documentElement.clientWidth, height: innerHeight });

/** The box of the field with focus, where it is one of `form`'s. */
function focusedIn(form: Element) {
  const active = document.activeElement;
  return active && active !== form && form.contains(active) ? active.getBoundingClientRect() : undefined;
}

/** The boxes of `form`'s fields on screen (not the visually hidden honeypot). */
function fieldBoxes(form: Element) {
  return [...form.querySelectorAll("input, textarea, select, button")]
    .map((field) => field.getBoundingClientRect())
    .filter((box) => box.width > 1 && box.height > 1);
}

/** Dismisses the success toast. */
export function dismissSuccess() {
  toast.dismiss(SUCCESS_ID);
}

/** Measures the toast on an invisible copy of it, where the page's styles put it, then places it. */
function placement(avoid: Element, tone: Tone, title: string, plainText: string): Placement {
  // As react-hot-toast lays a toast out: a fixed rack 16 px in from the screen's edges, a full-width
  // row that centres the toast (a classic scrollbar or a narrow screen makes the toast narrower).
  const rack = document.createElement("div");
  rack.className = styles.container;
  rack.style.cssText = `position:fixed;inset:${EDGE}px;visibility:hidden;pointer-events:none`;
  const row = rack.appendChild(document.createElement("div"));
  row.style.cssText = "position:absolute;left:0;right:0;display:flex;justify-content:center";
  const probe = row.appendChild(document.createElement("div"));
  probe.className = styles.toast[tone];
  const body = Object.assign(probe.appendChild(document.createElement("div")), { className: styles.body });
  Object.assign(body.appendChild(document.createElement("p")), { className: styles.title, textContent: title });
  Object.assign(body.appendChild(document.createElement("p")), { className: styles.text, textContent: plainText });
  Object.assign(probe.appendChild(document.createElement("span")), { className: styles.dismiss });
  document.body.append(rack);
  const size = probe.getBoundingClientRect();
  const topEdge = rack.getBoundingClientRect().top;
  rack.remove();
  return placeToast({
    fields: fieldBoxes(avoid),
    size,
    viewport: viewport(),
    topEdge,
    bottomEdge: EDGE,
    focused: focusedIn(avoid),
  });
}

export default function ToastRack() {
  return <Toaster position="top-center" containerClassName={styles.container} />;
}
