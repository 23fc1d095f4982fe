/**
 * The site's whole stylesheet goes inline in the HTML, so the first paint needs no second request; beside
 * it, the toasts' rules written in advance (toast-styles.ts). The document pipeline reads both once and
 * provides them; the page is rendered on the server only (decision 030). The CSP allows each by the hash
 * of its text (csp.server.ts).
 */
import { createContext, useContext } from "react";
import { TOAST_STYLE_ELEMENT_ID } from "./toast-styles";

export type InlineCss = { critical: string; toasts: string };

const CriticalCssContext = createContext<InlineCss>({ critical: "", toasts: "" });
export const CriticalCssProvider = CriticalCssContext.Provider;

export function InlineStyles() {
  const { critical, toasts } = useContext(CriticalCssContext);
  return (
    <>
      <style id="critical-css" dangerouslySetInnerHTML={{ __html: critical }} />
      <style id={TOAST_STYLE_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: toasts }} />
    </>
  );
}
