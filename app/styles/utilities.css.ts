import { style } from "@vanilla-extract/css";
import { breakpoints, vars } from "./theme.css";

/** Hidden on screen, read by screen readers. */
export const visuallyHidden = style({
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
  border: 0,
});

export const container = style({
  width: "100%",
  maxWidth: vars.size.content,
  marginInline: "auto",
  paddingInline: vars.space.gutter,
});

export const section = style({ paddingBlock: vars.space.section });

export const sectionHeading = style({
  fontSize: vars.fontSize.h2,
  marginBottom: vars.space.small,
  // "Equipment" at the smallest h2 size is wider than a zoomed phone's column: a size down, and a
  // word longer still is hyphenated rather than pushing the page sideways.
  overflowWrap: "break-word",
  hyphens: "auto",
  "@media": { [breakpoints.zoomedPhone]: { fontSize: "1.5rem" } },
});

export const sectionIntro = style({
  color: vars.color.textMuted,
  fontSize: vars.fontSize.large,
  maxWidth: "40rem",
  marginBottom: vars.space.xlarge,
});

export const eyebrow = style({
  color: vars.color.accent,
  fontSize: vars.fontSize.small,
  fontWeight: 700,
  letterSpacing: "0.12em",
  textTransform: "uppercase",
});

export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.large,
  padding: vars.space.large,
  "@media": { [breakpoints.zoomedPhone]: { padding: vars.space.medium } },
});

/** "Skip to content": off screen until focused, then above the fixed header. */
export const skipLink = style({
  position: "absolute",
  left: vars.space.medium,
  top: "-10rem",
  zIndex: 20,
  padding: `${vars.space.small} ${vars.space.medium}`,
  background: vars.color.accent,
  color: vars.color.accentText,
  borderRadius: vars.radius.small,
  fontWeight: 700,
  selectors: { "&:focus": { top: vars.space.small } },
});
