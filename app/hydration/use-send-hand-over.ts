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
 */
export function useSendHandOver(send: () => void): boolean {
  const [waiting] = useState(() => sendBeforeHydrationOffer()?.sending() ?? false);
  const latest = useRef(send);
  latest.current = send;
  useEffect(() => sendBeforeHydrationOffer()?.takeOver(() => latest.current()), []);
  return waiting;
}
