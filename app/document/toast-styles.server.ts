/**
 * The rules react-hot-toast's goober writes in the browser, computed on the server: goober's keyframes
 * and classes are made when react-hot-toast's module is evaluated, and on a server they go into
 * goober's server-side sheet, from which `extractCss` takes them (the same text the browser's copy of
 * goober, the same version, writes). See toast-styles.ts.
 */
import { extractCss } from "goober";
import { toast } from "react-hot-toast";

let css: string | undefined;

export function toastCss(): string {
  // A reference to the module keeps its import (and so its evaluation) in the server build.
  if (css === undefined) css = typeof toast === "function" ? extractCss() : "";
  // goober writes into the element's first text node: an empty element has none.
  return css || " ";
}
