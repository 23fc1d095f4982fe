import { style, styleVariants } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

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
});

export const toast = styleVariants({
  success: [base, { background: vars.color.successSurface, borderColor: vars.color.successBorder, color: vars.color.successText }],
  destructive: [base, { background: vars.color.dangerSurface, borderColor: vars.color.dangerBorder, color: vars.color.dangerText }],
});

export const title = style({ fontWeight: 700, fontSize: vars.fontSize.body });

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
});
