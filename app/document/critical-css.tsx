/**
 * The site's whole stylesheet (~3 KB gzipped) goes inline in the HTML, so the first paint needs
 * no second request. the document pipeline reads the built file once and provides it; in the browser the
 * <style> element already holds it, and hydration keeps it as it is.
 */
import { createContext, useContext } from "react";

const CriticalCssContext = createContext<string | undefined>(undefined);
export const CriticalCssProvider = CriticalCssContext.Provider;

const ID = "critical-css";

export function InlineStyles() {
  const fromServer = useContext(CriticalCssContext);
  const css = fromServer ?? (typeof document !== "undefined" ? (document.getElementById(ID)?.innerHTML ?? "") : "");
  return <style id={ID} dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />;
}
