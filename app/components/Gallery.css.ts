import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const grid = style({
  display: "grid",
  gap: vars.space.medium,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 18rem), 1fr))",
  listStyle: "none",
  padding: 0,
});

export const figure = style({
  margin: 0,
  overflow: "hidden",
  borderRadius: vars.radius.large,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
});

export const image = style({ width: "100%", aspectRatio: "4 / 3", objectFit: "cover" });
