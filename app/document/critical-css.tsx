/**
 * The site's whole stylesheet (~3 KB gzipped) goes inline in the HTML, so the first paint needs
 * no second request; beside it, the toasts' rules written in advance (toast-styles.ts). The document
 * pipeline reads both once and provides them; in the browser the <style> elements already hold them,
 * and hydration keeps them as they are. The CSP allows each by the hash of its text (csp.server.ts).
 */
import { createContext, useContext } from "react";
import { TOAST_STYLE_ELEMENT_ID } from "./toast-styles";

export type InlineCss = { critical: string; toasts: string };

const CriticalCssContext = createContext<InlineCss | undefined>(undefined);
export const CriticalCssProvider = CriticalCssContext.Provider;

const ID = "critical-css";

export function InlineStyles() {
  const fromServer = useContext(CriticalCssContext);
  const inDocument = (id: string) => (typeof document !== "undefined" ? (document.getElementById(id)?.innerHTML ?? "") : "");
  const critical = fromServer?.critical ?? inDocument(ID);
  const toasts = fromServer?.toasts ?? inDocument(TOAST_STYLE_ELEMENT_ID);
  return (
    <>
      <style id={ID} dangerouslySetInnerHTML={{ __html: critical }} suppressHydrationWarning />
      <style id={TOAST_STYLE_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: toasts }} suppressHydrationWarning />
    </>
  );
}
