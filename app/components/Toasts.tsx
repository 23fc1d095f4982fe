/**
 * Toasts, loaded on demand: react-hot-toast is not needed until the first message, so it stays out
 * of the first view's JavaScript. The message is spoken at once through the page's live region.
 */
import { lazy, Suspense, useSyncExternalStore, type ReactNode } from "react";
import { announce } from "~/utils/announce";

export type Tone = "success" | "destructive";

const loadRack = () => import("./ToastRack");
const ToastRack = lazy(loadRack);

let wanted = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Shows a toast; `plainText` is what screen readers hear after the title. */
export async function showToast(tone: Tone, title: string, text: ReactNode, plainText: string) {
  announce(`${title} ${plainText}`);
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
  const { show } = await loadRack();
  show(tone, title, text);
}

export function ToastViewport() {
  const mounted = useSyncExternalStore(subscribe, () => wanted, () => false);
  return mounted ? (
    <Suspense fallback={null}>
      <ToastRack />
    </Suspense>
  ) : null;
}
