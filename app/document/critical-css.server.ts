import { readFileSync } from "node:fs";
import path from "node:path";
import { cssBundleHref } from "@remix-run/css-bundle";

let css: string | undefined;
/** The built CSS bundle's text, read once (remix-serve serves public/ from the working directory). */
export function criticalCss(): string {
  if (css === undefined) {
    css = cssBundleHref ? readFileSync(path.join(process.cwd(), "public", cssBundleHref), "utf8") : "";
    // The text goes inside a <style> element: make sure nothing in it can close that element.
    css = css.replace(/<\/style/gi, "<\\/style");
  }
  return css;
}
