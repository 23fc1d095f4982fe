import { globalStyle } from "@vanilla-extract/css";
import { breakpoints, vars } from "./theme.css";

globalStyle("*, *::before, *::after", { boxSizing: "border-box" });

globalStyle("html", {
  colorScheme: "dark",
  // Anchored headings land below the fixed header, with a little air.
  scrollPaddingTop: `calc(${vars.size.header} + ${vars.space.medium})`,
  WebkitTextSizeAdjust: "100%",
});

// Smooth only while a link has focus: one the visitor follows (a tap or click focuses it, except in
// Safari, where nothing slides) or reaches by Tab. Every other scroll is at once:
// - a landing on /#faq: a page that slides for a second and a half under the finger makes the first
//   tap land on whatever passes by;
// - focus bringing a field into view (Tab, autofill, a screen reader, the first field in error) and
//   the page bringing Send above a toast: a keyboard visitor waits for no slide to a field, and a slide of the
//   whole page kept the form's scripts from hydrating for as long (decision 026: 1.3 s against 0.6 s for a
//   tap on a phone);
// - everything, for visitors who prefer reduced motion.
// Where `:has()` is unknown (Firefox before 121), every scroll is at once.
globalStyle("html:has(a:focus)", {
  "@media": { "(prefers-reduced-motion: no-preference)": { scrollBehavior: "smooth" } },
});

globalStyle("body", {
  margin: 0,
  background: vars.color.background,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.body,
  lineHeight: 1.6,
  WebkitFontSmoothing: "antialiased",
});

// On a zoomed phone a word may be wider than its column ("optimization" in a card): it breaks there, and
// only there, instead of running out of its card (a word that fits is never broken).
globalStyle("body", { "@media": { [breakpoints.zoomedPhone]: { overflowWrap: "anywhere", hyphens: "auto" } } });

globalStyle("h1, h2, h3, p, ul, dl, dd", { margin: 0 });
globalStyle("h1, h2, h3", { fontFamily: vars.font.display, lineHeight: 1.15, letterSpacing: "-0.01em" });
globalStyle("img", { display: "block", maxWidth: "100%", height: "auto" });
globalStyle("a", { color: vars.color.accent, textUnderlineOffset: "0.2em" });
globalStyle("a:hover", { color: vars.color.accentHover });

globalStyle(":focus-visible", {
  outline: `3px solid ${vars.color.focus}`,
  outlineOffset: "3px",
  borderRadius: vars.radius.small,
});

globalStyle("button, input, textarea, select", { font: "inherit", color: "inherit" });

globalStyle("*", {
  "@media": {
    "(prefers-reduced-motion: reduce)": {
      animationDuration: "0.01ms !important",
      transitionDuration: "0.01ms !important",
    },
  },
});
