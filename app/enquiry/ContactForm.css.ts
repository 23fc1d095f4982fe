import { style, styleVariants } from "@vanilla-extract/css";
import { breakpoints, vars } from "~/styles/theme.css";

export const form = style({ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: vars.space.medium });

export const row = style({
  display: "grid",
  gap: vars.space.medium,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 14rem), 1fr))",
});

export const field = style({ display: "grid", gap: vars.space.xsmall });
export const label = style({ fontWeight: 600, fontSize: vars.fontSize.small });
export const optional = style({ color: vars.color.textMuted, fontWeight: 400 });

export const control = style({
  width: "100%",
  minHeight: vars.size.touchTarget,
  padding: `${vars.space.small} ${vars.space.medium}`,
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  resize: "vertical",
  selectors: {
    "&::placeholder": { color: vars.color.textMuted, opacity: 0.75 },
    "&:hover": { borderColor: vars.color.textMuted },
    "&:focus-visible": { outlineOffset: "1px", borderColor: vars.color.accent },
    "&[aria-invalid=true]": { borderColor: vars.color.dangerBorder },
    // The attribute, not :read-only, which every select matches in Chromium.
    "&[readonly]": { opacity: 0.7 },
  },
});

export const error = style({ color: vars.color.dangerBorder, fontSize: vars.fontSize.small, fontWeight: 600 });

export const submit = style({
  justifySelf: "start",
  minWidth: "min(11rem, 100%)",
  // At 200 % zoom on a phone its padding goes to the label, which then wraps only between words: a
  // Send two lines tall fits above a toast (app/toasts/placement.ts). (Doubled class: over the
  // button's own padding at that width.)
  "@media": { [breakpoints.zoomedPhone]: { selectors: { "&&": { paddingInline: vars.space.small } } } },
});

const noticeBase = style({
  padding: vars.space.medium,
  borderRadius: vars.radius.medium,
  borderLeftWidth: 6,
  borderStyle: "solid",
});
export const notice = styleVariants({
  success: [noticeBase, { background: vars.color.successSurface, borderColor: vars.color.successBorder, color: vars.color.successText }],
  destructive: [noticeBase, { background: vars.color.dangerSurface, borderColor: vars.color.dangerBorder, color: vars.color.dangerText }],
});
export const noticeTitle = style({ fontWeight: 700 });

export const privacy = style({ color: vars.color.textMuted, fontSize: vars.fontSize.small });
