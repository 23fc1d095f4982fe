import { style } from "@vanilla-extract/css";
import { breakpoints, vars } from "~/styles/theme.css";

export const grid = style({
  display: "grid",
  gap: vars.space.large,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 15rem), 1fr))",
  listStyle: "none",
  padding: 0,
});

export const serviceCard = style({ display: "flex", flexDirection: "column", gap: vars.space.medium });

export const icon = style({
  display: "grid",
  placeItems: "center",
  width: "3rem",
  height: "3rem",
  borderRadius: vars.radius.medium,
  background: vars.color.accentSoft,
  color: vars.color.accent,
});

export const cardTitle = style({ fontSize: vars.fontSize.h3 });
export const description = style({ color: vars.color.textMuted });

export const features = style({
  display: "grid",
  gap: vars.space.small,
  paddingLeft: 0,
  listStyle: "none",
  flexGrow: 1,
});

export const feature = style({
  display: "flex",
  gap: vars.space.small,
  alignItems: "baseline",
  selectors: {
    "&::before": {
      content: '""',
      flexShrink: 0,
      width: "0.5rem",
      height: "0.5rem",
      borderRadius: vars.radius.pill,
      background: vars.color.accent,
      transform: "translateY(-0.1em)",
    },
  },
});

export const price = style({
  fontFamily: vars.font.display,
  fontSize: "1.5rem",
  fontWeight: 800,
  color: vars.color.accent,
  // "$60/hour" whole on a zoomed phone.
  "@media": { [breakpoints.zoomedPhone]: { fontSize: vars.fontSize.h3 } },
  paddingTop: vars.space.medium,
  borderTop: `1px solid ${vars.color.border}`,
});

export const packagesHeading = style({
  fontSize: "1.5rem",
  marginTop: vars.space.section,
  marginBottom: vars.space.small,
});

export const packageCard = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.small,
  background: `linear-gradient(160deg, ${vars.color.surfaceRaised}, ${vars.color.surface})`,
});

export const packagePrice = style({ fontFamily: vars.font.display, fontSize: "2rem", fontWeight: 800 });

export const savings = style({
  alignSelf: "flex-start",
  padding: `${vars.space.xsmall} ${vars.space.medium}`,
  borderRadius: vars.radius.pill,
  background: vars.color.accentSoft,
  color: vars.color.accent,
  fontWeight: 700,
  fontSize: vars.fontSize.small,
});
