/** react-hot-toast and the toast markup; loaded on the first toast (see Toasts.tsx). */
import toast, { Toaster } from "react-hot-toast";
import { toasts as texts } from "~/content";
import { placeToast, type Placement } from "./placement";
import * as styles from "./Toasts.css";
import type { Tone } from "./tone";

// Our own live region speaks each toast (see announce.ts); the toast's own is silenced so nothing is read twice.
const silent = { role: "status", "aria-live": "off" } as const;
// react-hot-toast keeps its toasts this far from the screen's bottom edge.
const BOTTOM_EDGE = 16;
const SUCCESS_ID = "success";

/** Shows a toast; with `avoid`, where it covers none of that form's fields (placement.ts). */
export function show(tone: Tone, title: string, text: React.ReactNode, plainText: string, avoid?: Element | null) {
  toast.custom(
    (t) => (
      <div className={styles.toast[tone]} data-tone={tone}>
        <div>
          <p className={styles.title}>{title}</p>
          <p>{text}</p>
        </div>
        <button type="button" className={styles.dismiss} onClick={() => toast.dismiss(t.id)} aria-label={texts.dismiss}>
          ×
        </button>
      </div>
    ),
    // Errors stay until dismissed (WCAG 2.2.1); a success fades after 8 s, or when the visitor goes
    // back to a field of the form (Toasts.tsx: dismissSuccessToast).
    {
      // One success toast at a time, so that it can be dismissed by name.
      id: tone === "success" ? SUCCESS_ID : undefined,
      duration: tone === "destructive" ? Infinity : 8000,
      ariaProps: silent,
      position: avoid ? placement(avoid, tone, title, plainText) : "top-center",
    },
  );
}

/** Dismisses the success toast. */
export function dismissSuccess() {
  toast.dismiss(SUCCESS_ID);
}

/** Measures the toast on an invisible copy of it, where the page's styles put it, then places it. */
function placement(avoid: Element, tone: Tone, title: string, plainText: string): Placement {
  const rack = document.createElement("div");
  rack.className = styles.container;
  rack.style.cssText = "position:fixed;visibility:hidden;pointer-events:none";
  const probe = rack.appendChild(document.createElement("div"));
  probe.className = styles.toast[tone];
  const body = probe.appendChild(document.createElement("div"));
  Object.assign(body.appendChild(document.createElement("p")), { className: styles.title, textContent: title });
  body.appendChild(document.createElement("p")).textContent = plainText;
  Object.assign(probe.appendChild(document.createElement("span")), { className: styles.dismiss });
  document.body.append(rack);
  const size = probe.getBoundingClientRect();
  const topEdge = rack.getBoundingClientRect().top;
  rack.remove();
  const fields = [...avoid.querySelectorAll("input, textarea, select, button")]
    .map((field) => field.getBoundingClientRect())
    .filter((box) => box.width > 1 && box.height > 1); // not the visually hidden honeypot
  return placeToast({
    fields,
    size,
    viewport: { width: document.documentElement.clientWidth, height: innerHeight },
    topEdge,
    bottomEdge: BOTTOM_EDGE,
  });
}

export default function ToastRack() {
  return <Toaster position="top-center" containerClassName={styles.container} />;
}
