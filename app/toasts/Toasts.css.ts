import { style, styleVariants } from "@vanilla-extract/css";
import { breakpoints, vars } from "~/styles/theme.css";

/** The ×'s side at 200 % zoom on a phone: smaller than elsewhere, still above WCAG 2.5.8's 24 px. */
const zoomedDismiss = "2rem";

export const container = style({ top: `calc(${vars.size.header} + 0.5rem) !important` });

const base = style({
  display: "flex",
  alignItems: "flex-start",
  gap: vars.space.medium,
  width: "min(26rem, calc(100vw - 2rem))",
  padding: vars.space.medium,
  borderRadius: vars.radius.medium,
  borderLeftWidth: 6,
  borderStyle: "solid",
  boxShadow: vars.shadow.raised,
  fontSize: vars.fontSize.small,
  // Taps go through a toast to what is under it, whatever scrolled there; only its × takes them.
  // (Doubled class: react-hot-toast gives every toast `pointer-events: auto` with one class.)
  selectors: { "&&": { pointerEvents: "none" } },
  // At 200 % zoom on a phone the toast must stay short enough to leave Send in sight above it
  // (placement.ts): a grid where the × takes a corner beside the title, and the text the whole width.
  "@media": {
    [breakpoints.zoomedPhone]: {
      display: "grid",
      gridTemplateColumns: `1fr ${zoomedDismiss}`,
      gap: `0 ${vars.space.xsmall}`,
      width: "100%",
      padding: vars.space.small,
      borderLeftWidth: 4,
    },
  },
});

export const toast = styleVariants({
  success: [base, { background: vars.color.successSurface, borderColor: vars.color.successBorder, color: vars.color.successText }],
  destructive: [base, { background: vars.color.dangerSurface, borderColor: vars.color.dangerBorder, color: vars.color.dangerText }],
});

/** The title and the text; at 200 % zoom they join the toast's grid. */
export const body = style({ "@media": { [breakpoints.zoomedPhone]: { display: "contents" } } });

export const title = style({
  fontWeight: 700,
  fontSize: vars.fontSize.body,
  "@media": { [breakpoints.zoomedPhone]: { gridColumn: 1, gridRow: 1, fontSize: vars.fontSize.small } },
});

export const text = style({ "@media": { [breakpoints.zoomedPhone]: { gridColumn: "1 / -1" } } });

export const dismiss = style({
  marginLeft: "auto",
  flexShrink: 0,
  width: vars.size.touchTarget,
  height: vars.size.touchTarget,
  marginBlock: `calc(-1 * ${vars.space.small})`,
  marginRight: `calc(-1 * ${vars.space.small})`,
  border: 0,
  borderRadius: vars.radius.pill,
  background: "transparent",
  fontSize: "1.5rem",
  lineHeight: 1,
  cursor: "pointer",
  pointerEvents: "auto",
  selectors: { "&:hover": { background: vars.color.hoverTint } },
  "@media": {
    [breakpoints.zoomedPhone]: {
      gridColumn: 2,
      gridRow: 1,
      width: zoomedDismiss,
      height: zoomedDismiss,
      margin: `calc(-1 * ${vars.space.xsmall}) calc(-1 * ${vars.space.xsmall}) 0 0`,
    },
  },
});
