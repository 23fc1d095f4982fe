import { style, styleVariants } from "@vanilla-extract/css";
import { breakpoints, vars } from "./theme.css";

const base = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.small,
  minHeight: vars.size.touchTarget,
  paddingInline: vars.space.large,
  borderRadius: vars.radius.pill,
  border: "2px solid transparent",
  maxWidth: "100%",
  fontWeight: 700,
  whiteSpace: "nowrap",
  textAlign: "center",
  textDecoration: "none",
  cursor: "pointer",
  transition: "background-color 150ms ease, color 150ms ease, transform 150ms ease",
  // A zoomed phone's screen is narrower than some labels with their padding: the label wraps instead.
  "@media": { [breakpoints.zoomedPhone]: { whiteSpace: "normal", paddingInline: vars.space.medium } },
  selectors: {
    "&:disabled": { cursor: "progress", opacity: 0.75 },
    "&:active:not(:disabled)": { transform: "translateY(1px)" },
  },
});

export const button = styleVariants({
  primary: [
    base,
    {
      background: vars.color.accent,
      color: vars.color.accentText,
      selectors: { "&:hover:not(:disabled)": { background: vars.color.accentHover, color: vars.color.accentText } },
    },
  ],
  outline: [
    base,
    {
      background: "transparent",
      color: vars.color.text,
      borderColor: vars.color.border,
      selectors: { "&:hover": { borderColor: vars.color.accent, color: vars.color.text } },
    },
  ],
});
