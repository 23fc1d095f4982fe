import toast, { Toaster } from "react-hot-toast";
import { toasts as texts } from "~/content";
import { announce } from "~/utils/announce";
import * as styles from "./Toasts.css";

type Tone = "success" | "destructive";

// Our own live region speaks each toast (see announce.ts); the toast's own is silenced so nothing is read twice.
const silent = { role: "status", "aria-live": "off" } as const;

export function showToast(tone: Tone, title: string, text: React.ReactNode, plainText: string) {
  announce(`${title} ${plainText}`);
  return toast.custom(
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

export function ToastViewport() {
  return <Toaster position="top-center" containerClassName={styles.container} />;
}
