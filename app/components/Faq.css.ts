import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const list = style({ display: "grid", gap: vars.space.small, maxWidth: "48rem", marginTop: vars.space.large });

export const item = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  selectors: { "&[data-state=open]": { borderColor: vars.color.accent } },
});

export const heading = style({ margin: 0, fontSize: vars.fontSize.body });

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
  fontWeight: 700,
  cursor: "pointer",
  borderRadius: vars.radius.medium,
  selectors: { "&:focus-visible": { outline: `3px solid ${vars.color.focus}`, outlineOffset: "2px" } },
});

export const chevron = style({
  flexShrink: 0,
  color: vars.color.accent,
  transition: "transform 200ms ease",
  selectors: { [`${trigger}[data-state=open] &`]: { transform: "rotate(180deg)" } },
});

export const content = style({
  padding: `0 ${vars.space.large} ${vars.space.medium}`,
  color: vars.color.textMuted,
});
