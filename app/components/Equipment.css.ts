import { style } from "@vanilla-extract/css";
import { breakpoints, vars } from "~/styles/theme.css";

export const band = style({ background: vars.color.surface, borderBlock: `1px solid ${vars.color.border}` });

export const grid = style({
  display: "grid",
  gap: vars.space.large,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 15rem), 1fr))",
  listStyle: "none",
  padding: 0,
});

export const group = style({ background: vars.color.surfaceRaised });
export const category = style({
  fontSize: vars.fontSize.h3,
  marginBottom: vars.space.medium,
  color: vars.color.accent,
  overflowWrap: "break-word",
  hyphens: "auto",
  // "Microphones" is wider than a card on a zoomed phone at this size.
  "@media": { [breakpoints.zoomedPhone]: { fontSize: vars.fontSize.large } },
});
export const items = style({
  display: "grid",
  gap: vars.space.small,
  paddingLeft: vars.space.large,
  "@media": { [breakpoints.zoomedPhone]: { paddingLeft: vars.space.medium } },
});

export const badge = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.small,
  marginTop: vars.space.xlarge,
  padding: `${vars.space.small} ${vars.space.large}`,
  borderRadius: vars.radius.pill,
  border: `1px solid ${vars.color.accent}`,
  color: vars.color.text,
  fontWeight: 700,
  // Two lines on a zoomed phone: a rounded box, not a pill, and the padding goes to the text.
  "@media": { [breakpoints.zoomedPhone]: { paddingInline: vars.space.medium, borderRadius: vars.radius.medium } },
});
