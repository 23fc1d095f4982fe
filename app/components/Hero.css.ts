import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const hero = style({
  position: "relative",
  overflow: "hidden",
  paddingTop: `calc(${vars.size.header} + ${vars.space.section})`,
  paddingBottom: vars.space.section,
  // Pure CSS backdrop: no image to download before the first paint.
  background: `radial-gradient(60rem 30rem at 85% -10%, ${vars.color.accentSoft}, transparent 60%),
    radial-gradient(40rem 24rem at 0% 110%, ${vars.color.backdropGlow}, transparent 60%),
    ${vars.color.background}`,
  borderBottom: `1px solid ${vars.color.border}`,
});

export const title = style({
  fontSize: vars.fontSize.hero,
  fontWeight: 800,
  maxWidth: "16ch",
  marginBlock: `${vars.space.medium} ${vars.space.large}`,
});

export const tagline = style({
  fontSize: vars.fontSize.large,
  color: vars.color.textMuted,
  maxWidth: "38rem",
  marginBottom: vars.space.xlarge,
});

export const wave = style({
  position: "absolute",
  right: "-4rem",
  bottom: "-1rem",
  width: "min(46rem, 90vw)",
  color: vars.color.accent,
  opacity: 0.18,
  pointerEvents: "none",
});
