/** react-hot-toast and the toast markup; loaded on the first toast (see Toasts.tsx). */
import toast, { Toaster } from "react-hot-toast";
import { toasts as texts } from "~/content";
import * as styles from "./Toasts.css";
import type { Tone } from "./tone";

// Our own live region speaks each toast (see announce.ts); the toast's own is silenced so nothing is read twice.
const silent = { role: "status", "aria-live": "off" } as const;

export function show(tone: Tone, title: string, text: React.ReactNode) {
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
    // Errors stay until dismissed (WCAG 2.2.1); a success fades after 8 s.
    { duration: tone === "destructive" ? Infinity : 8000, ariaProps: silent },
  );
}

export default function ToastRack() {
  return <Toaster position="top-center" containerClassName={styles.container} />;
}
