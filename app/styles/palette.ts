/**
 * The site's colours, named by role: the one place a colour is written (app/styles/theme.test.ts fails on a
 * raw colour anywhere else in app/). Styles read them as theme `vars.color` (theme.css.ts); the one place
 * that needs a value itself (the browser's theme-color) imports it from here. Every text/background pair
 * in use keeps WCAG AA contrast: theme.test.ts computes each ratio.
 */

/** The page's background, also the browser's theme-color (root.tsx imports only this: no palette in its JS). */
export const BACKGROUND = "#0f0e13";

export const palette = {
  background: BACKGROUND,
  surface: "#17151d",
  surfaceRaised: "#1f1c27",
  border: "#332f3f",
  text: "#f5f2ec",
  textMuted: "#c0b9cc",
  accent: "#f4a93b",
  accentHover: "#ffc266",
  accentText: "#1b1205",
  accentSoft: "rgba(244, 169, 59, 0.14)",
  /** The cool second light of the hero's backdrop, opposite the warm accentSoft one. */
  backdropGlow: "rgba(120, 90, 200, 0.16)",
  /** Laid over a borderless control's own background while the pointer is on it (a toast's close button). */
  hoverTint: "rgba(255, 255, 255, 0.08)",
  focus: "#ffd58f",
  dangerSurface: "#3b1418",
  dangerBorder: "#ff7a70",
  dangerText: "#ffe3e0",
  successSurface: "#12301f",
  successBorder: "#5fd394",
  successText: "#dcf8e7",
  overlay: "rgba(15, 14, 19, 0.88)",
  /** Under raised things (the toast, the phone menu). */
  shadow: "rgba(0, 0, 0, 0.35)",
} as const;
