import { style } from "@vanilla-extract/css";
import { breakpoints, vars } from "~/styles/theme.css";

export const band = style({
  background: `radial-gradient(50rem 30rem at 10% 0%, ${vars.color.accentSoft}, transparent 60%), ${vars.color.surface}`,
  borderBlock: `1px solid ${vars.color.border}`,
});

// One column that may be narrower than its content's intrinsic width (an input's default size is about
// 11rem): the fields take the width there is, down to a zoomed phone's.
export const layout = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.large,
  "@media": { [breakpoints.sideBySide]: { gridTemplateColumns: "minmax(0, 3fr) minmax(0, 2fr)", alignItems: "start" } },
});

export const aside = style({ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: vars.space.large });
export const formCard = style({ background: vars.color.surfaceRaised });
export const cardTitle = style({ fontSize: vars.fontSize.h3, marginBottom: vars.space.xsmall });
export const cardDescription = style({ color: vars.color.textMuted, marginBottom: vars.space.large });

export const facts = style({ display: "grid", gap: vars.space.medium });
export const factTerm = style({ fontSize: vars.fontSize.small, color: vars.color.textMuted, fontWeight: 600 });
export const factValue = style({ overflowWrap: "anywhere", fontStyle: "normal" });
export const strong = style({ fontWeight: 700, fontSize: vars.fontSize.large });
export const muted = style({ color: vars.color.textMuted });
