/**
 * Toasts, loaded on demand: react-hot-toast is not needed until the first message, so it stays out
 * of the first view's JavaScript. The message is spoken at once through the page's live region.
 */
import { lazy, Suspense, useSyncExternalStore, type ReactNode } from "react";
import { announce } from "./announce";
import { TOAST_DURATION_MS, type Tone } from "./tone";

export { TOAST_DURATION_MS, type Tone };

const loadRack = () => import("./ToastRack");
// A failed download must not take the page down with it: render nothing, showToast reports false.
const ToastRack = lazy(() => loadRack().catch(() => ({ default: (): JSX.Element | null => null })));

let wanted = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Starts loading the toast code early (the form does this at the visitor's first pause once it has hydrated, with supabase-js). */
export function preloadToasts() {
  loadRack().catch(() => undefined);
}

/**
 * Shows a toast; `plainText` is what screen readers hear after the title. Resolves false when the
 * toast code could not be loaded (the network just failed), so the caller can show it inline.
 */
export async function showToast(
  tone: Tone,
  title: string,
  text: ReactNode,
  plainText: string,
  /** The form the toast speaks about: the toast covers none of its fields (placement.ts). */
  avoid?: Element | null,
): Promise<boolean> {
  announce(`${title} ${plainText}`);
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
  try {
    const { show } = await loadRack();
    show(tone, title, text, plainText, avoid);
    return true;
  } catch {
    return false;
  }
}

/** The visitor is back in a field of the form: the success toast has been seen, and goes. */
export function dismissSuccessToast() {
  if (wanted)
    loadRack().then(
      ({ dismissSuccess }) => dismissSuccess(),
      () => undefined,
    );
}

export function ToastViewport() {
  const mounted = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  return mounted ? (
    <Suspense fallback={null}>
      <ToastRack />
    </Suspense>
  ) : null;
}
