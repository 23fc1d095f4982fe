import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const band = style({ background: vars.color.surface, borderBlock: `1px solid ${vars.color.border}` });

export const grid = style({
  display: "grid",
  gap: vars.space.large,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 15rem), 1fr))",
  listStyle: "none",
  padding: 0,
});

export const group = style({ background: vars.color.surfaceRaised });
export const category = style({ fontSize: vars.fontSize.h3, marginBottom: vars.space.medium, color: vars.color.accent });
export const items = style({ display: "grid", gap: vars.space.small, paddingLeft: vars.space.large });

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
});
