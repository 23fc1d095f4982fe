import { style } from "@vanilla-extract/css";
import { breakpoints, vars } from "~/styles/theme.css";

/** One photo a row on phones, two from `twoColumns`, three at the content's full width (Gallery's `sizes`). */
export const grid = style({
  display: "grid",
  gap: vars.space.medium,
  gridTemplateColumns: "1fr",
  listStyle: "none",
  padding: 0,
  "@media": {
    [breakpoints.twoColumns]: { gridTemplateColumns: "repeat(2, 1fr)" },
    [breakpoints.fullWidth]: { gridTemplateColumns: "repeat(3, 1fr)" },
  },
});

export const figure = style({
  margin: 0,
  overflow: "hidden",
  borderRadius: vars.radius.large,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
});

// The `sizes` of the photos: the grid's columns above, one on phones, two from twoColumns, three (each under
// 23rem) at the content's full width. Made here, at build time, so the page's scripts carry the string only.
const media = (query: string) => query.replace(/^screen and /, "");
export const sizes = `${media(breakpoints.fullWidth)} 23rem, ${media(breakpoints.twoColumns)} 50vw, 100vw`;

export const image = style({ width: "100%", aspectRatio: "4 / 3", objectFit: "cover" });
