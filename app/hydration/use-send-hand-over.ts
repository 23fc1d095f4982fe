/**
 * The booking form's one link to Send before hydration (inline-send-before-hydration.ts, decision 019):
 * the form holds the form, this hook the hand-over. A Send pressed while the page was plain HTML shows
 * "Sending..." already and waits; the form hydrates in that state, and the hook hands that Send, and
 * every later one until React hears input, to the form's own `send`.
 */
import { useEffect, useRef, useState } from "react";
import { sendBeforeHydrationOffer } from "./inline-send-before-hydration";

/**
 * Registers `send` (the form's latest) to take the Sends pressed before hydration, once the form has
 * mounted. Returns whether one was waiting when the form first rendered: the form starts "Sending...".
 * If that Send is gone by the time the form has mounted (the visitor left between the two, and the
 * page dropped it at `pagehide`: hydration runs in slices, WebKit froze the page between them), it
 * calls `dropped`: the form is the visitor's again, never "Sending..." for a Send nobody sends.
 */
export function useSendHandOver(send: () => void, dropped: () => void): boolean {
  const [waiting] = useState(() => sendBeforeHydrationOffer()?.sending() ?? false);
  const latest = useRef({ send, dropped });
  latest.current = { send, dropped };
  useEffect(() => {
    const handedOver = sendBeforeHydrationOffer()?.takeOver(() => latest.current.send()) ?? false;
    if (waiting && !handedOver) latest.current.dropped();
  }, [waiting]);
  return waiting;
}
