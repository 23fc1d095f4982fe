import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const footer = style({ borderTop: `1px solid ${vars.color.border}`, paddingBlock: vars.space.xlarge });
// One column that may be narrower than the e-mail address (a zoomed phone): the address breaks instead.
export const inner = style({ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: vars.space.medium, justifyItems: "start" });
export const brand = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.small,
  fontWeight: 800,
  fontFamily: vars.font.display,
});
export const mark = style({ color: vars.color.accent });
export const links = style({
  display: "flex",
  flexWrap: "wrap",
  gap: `${vars.space.small} ${vars.space.large}`,
  listStyle: "none",
  padding: 0,
});
export const small = style({ color: vars.color.textMuted, fontSize: vars.fontSize.small, maxWidth: "100%", overflowWrap: "anywhere" });
