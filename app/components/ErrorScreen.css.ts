import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const screen = style({ minHeight: "100vh", display: "grid", placeItems: "center", padding: vars.space.gutter });
export const panel = style({ textAlign: "center", display: "grid", gap: vars.space.medium, justifyItems: "center" });
export const code = style({
  fontFamily: vars.font.display,
  fontSize: "clamp(4rem, 3rem + 8vw, 8rem)",
  fontWeight: 800,
  lineHeight: 1,
  color: vars.color.accent,
});
export const title = style({ fontSize: vars.fontSize.h2 });
export const detail = style({
  color: vars.color.textMuted,
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace",
  overflowWrap: "anywhere",
});
export const home = style({ fontWeight: 700 });
