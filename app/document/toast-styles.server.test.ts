// @vitest-environment node
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TOAST_STYLE_ELEMENT_ID } from "./toast-styles";
import { toastCss } from "./toast-styles.server";

const require = createRequire(import.meta.url);

describe("the toasts' rules, written in advance", () => {
  it("hold every rule react-hot-toast's module makes: the class that lets the toast be clicked, and its keyframes", () => {
    const css = toastCss();
    expect(css).toMatch(/\.go\d+\{z-index:9999;\}\.go\d+ > \*\{pointer-events:auto;\}/);
    expect(css).toMatch(/^(@keyframes go\d+\{[^}]*\{[^}]*\}[^}]*\{[^}]*\}(?:[^}]*\{[^}]*\})?\})+\.go/);
    expect(toastCss(), "read once, the same text every time").toBe(css);
  });

  it("goober (the installed version) still takes its sheet from the element with this id and writes no rule twice", () => {
    const goober = path.resolve(path.dirname(require.resolve("goober")), "..");
    const { version } = JSON.parse(readFileSync(path.join(goober, "package.json"), "utf8"));
    const source = readFileSync(path.join(goober, "dist/goober.modern.js"), "utf8");
    expect(version, "read from goober 2.1.19: check toast-styles.ts again").toBe("2.1.19");
    expect(source).toContain(`window.${TOAST_STYLE_ELEMENT_ID}`);
    expect(source).toContain(`-1===t.data.indexOf(e)`);
    expect(source).toContain(`e.parentNode||(t||document.head).appendChild(e),e.firstChild`);
  });
});
