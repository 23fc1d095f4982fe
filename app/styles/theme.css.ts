import { createGlobalTheme } from "@vanilla-extract/css";
import { palette } from "./palette";

/**
 * Design tokens, named by role. Components use only these `vars`. Colours come from palette.ts, the one
 * place one is written (theme.test.ts checks both that and their contrast).
 */
export const vars = createGlobalTheme(":root", {
  color: palette,
  font: {
    body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    display: '"Avenir Next", "Segoe UI", system-ui, -apple-system, Roboto, sans-serif',
  },
  fontSize: {
    small: "0.875rem",
    body: "1rem",
    large: "1.125rem",
    h3: "1.25rem",
    h2: "clamp(1.75rem, 1.3rem + 2vw, 2.5rem)",
    hero: "clamp(2.25rem, 1.4rem + 4.2vw, 4.25rem)",
  },
  space: {
    xsmall: "0.25rem",
    small: "0.5rem",
    medium: "1rem",
    large: "1.5rem",
    xlarge: "2.5rem",
    section: "clamp(4rem, 3rem + 4vw, 6.5rem)",
    gutter: "clamp(1rem, 0.5rem + 2.5vw, 2.5rem)",
  },
  radius: { small: "6px", medium: "12px", large: "20px", pill: "999px" },
  size: {
    // The fixed header's height; anchors scroll to just below it (scroll-padding-top).
    header: "4rem",
    content: "72rem",
    touchTarget: "44px",
  },
  shadow: { raised: `0 10px 30px ${palette.shadow}` },
});

/**
 * Breakpoints, named by what changes there. Media queries cannot read CSS variables, so these are
 * constants; components and their styles use only these.
 */
export const breakpoints = {
  /** Below it the header's studio name takes the body size, and the header tightens, so the whole name fits beside Book Now. */
  narrowPhone: "screen and (max-width: 479px)",
  /** Below it (a 320 px phone, a 360 px one with a classic scrollbar) the header drops its logo mark: its room goes to the name. */
  smallestPhone: "screen and (max-width: 359px)",
  /**
   * Below it (a 360 px phone at 200 % zoom lays out at 180 px; below 300 px the studio's full name no
   * longer fits beside Book Now) Book Now moves from the header into the menu, and cards, headings and
   * buttons give their padding to the text: nothing scrolls sideways, nothing covers anything (decision 027).
   */
  zoomedPhone: "screen and (max-width: 299px)",
  /** From it the gallery shows two photos a row (the `sizes` of its images follow the grid). */
  twoColumns: "screen and (min-width: 40rem)",
  /** From it the navigation sits in the header; below it, in the menu. */
  headerNavigation: "screen and (min-width: 56rem)",
  /** From it the booking form and the contact cards stand side by side. */
  sideBySide: "screen and (min-width: 60rem)",
  /** The content's full width (vars.size.content): from it the gallery has three columns (each under 23rem). */
  fullWidth: "screen and (min-width: 72rem)",
} as const;
