import { style } from "@vanilla-extract/css";
import { breakpoints, vars } from "~/styles/theme.css";

export const list = style({
  display: "grid",
  // A column that may be narrower than a question's longest word with its padding (a zoomed phone).
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.small,
  maxWidth: "48rem",
  marginTop: vars.space.large,
});

export const item = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  selectors: { "&[open]": { borderColor: vars.color.accent } },
});

export const trigger = style({
  all: "unset",
  boxSizing: "border-box",
  display: "flex",
  width: "100%",
  minHeight: vars.size.touchTarget,
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.medium,
  padding: `${vars.space.medium} ${vars.space.large}`,
  "@media": { [breakpoints.zoomedPhone]: { paddingInline: vars.space.medium } },
  fontWeight: 700,
  fontSize: vars.fontSize.body,
  lineHeight: 1.4,
  fontFamily: vars.font.display,
  letterSpacing: "-0.01em",
  cursor: "pointer",
  borderRadius: vars.radius.medium,
  selectors: { "&:focus-visible": { outline: `3px solid ${vars.color.focus}`, outlineOffset: "2px" } },
});

/** The question's text: an <h3> in the <summary>, with the summary's type (a heading's own would be larger). */
export const question = style({
  margin: 0,
  font: "inherit",
  letterSpacing: "inherit",
  lineHeight: "inherit",
  minWidth: 0,
  overflowWrap: "break-word",
});

/** The native <summary>: no disclosure triangle of the browser's own (the chevron shows the state). */
export const summary = style({
  listStyle: "none",
  selectors: { "&::-webkit-details-marker": { display: "none" } },
});

export const chevron = style({
  flexShrink: 0,
  color: vars.color.accent,
  transition: "transform 200ms ease",
  selectors: {
    [`details[open] > ${trigger} &`]: { transform: "rotate(180deg)" },
  },
  "@media": { "(prefers-reduced-motion: reduce)": { transition: "none" } },
});

export const content = style({
  padding: `0 ${vars.space.large} ${vars.space.medium}`,
  color: vars.color.textMuted,
});
