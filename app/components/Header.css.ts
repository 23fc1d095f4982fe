import { style } from "@vanilla-extract/css";
import { breakpoints, vars } from "~/styles/theme.css";

export const header = style({
  position: "fixed",
  insetInline: 0,
  top: 0,
  zIndex: 10,
  height: vars.size.header,
  background: vars.color.overlay,
  backdropFilter: "blur(12px)",
  borderBottom: `1px solid ${vars.color.border}`,
});

export const inner = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.medium,
  height: "100%",
  "@media": { [breakpoints.narrowPhone]: { gap: vars.space.small } },
});

export const logo = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.small,
  minHeight: vars.size.touchTarget,
  color: vars.color.text,
  fontFamily: vars.font.display,
  fontWeight: 800,
  fontSize: vars.fontSize.large,
  textDecoration: "none",
  minWidth: 0,
  selectors: { "&:hover": { color: vars.color.text } },
});

// On a narrow phone the whole name stays readable: it wraps between its words onto two or three
// lines at a smaller size instead of being cut short by the buttons beside it. From 320 px up the
// header leaves the longest word of the default name room enough, with a margin for wider system
// fonts (tests/e2e/layout.test.ts sweeps the widths); only a single word too long for any phone breaks.
export const logoText = style({
  lineHeight: 1.1,
  overflowWrap: "break-word",
  "@media": { [breakpoints.narrowPhone]: { fontSize: vars.fontSize.body } },
});

export const logoMark = style({
  color: vars.color.accent,
  flexShrink: 0,
  "@media": { [breakpoints.smallestPhone]: { display: "none" } },
});

export const actions = style({ display: "flex", alignItems: "center", gap: vars.space.small, flexShrink: 0 });

export const desktopNav = style({
  display: "none",
  "@media": { [breakpoints.headerNavigation]: { display: "block" } },
});

export const navList = style({
  display: "flex",
  gap: vars.space.xsmall,
  listStyle: "none",
  padding: 0,
});

export const navLink = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: vars.size.touchTarget,
  paddingInline: vars.space.medium,
  color: vars.color.textMuted,
  fontWeight: 600,
  textDecoration: "none",
  borderRadius: vars.radius.pill,
  selectors: { "&:hover": { color: vars.color.text, background: vars.color.surfaceRaised } },
});

/** A native <details> disclosure: works without JavaScript and is announced as expandable. */
export const menu = style({
  position: "relative",
  "@media": { [breakpoints.headerNavigation]: { display: "none" } },
});

export const menuButton = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: vars.size.touchTarget,
  height: vars.size.touchTarget,
  borderRadius: vars.radius.pill,
  border: `1px solid ${vars.color.border}`,
  cursor: "pointer",
  listStyle: "none",
  selectors: { "&::-webkit-details-marker": { display: "none" } },
});

export const menuPanel = style({
  position: "absolute",
  right: 0,
  top: `calc(100% + ${vars.space.small})`,
  // Never wider than the screen less its gutters: at 200 % zoom on a phone 12rem is more than the screen.
  minWidth: `min(12rem, 100vw - 2 * ${vars.space.gutter})`,
  padding: vars.space.small,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  boxShadow: vars.shadow.raised,
});

export const menuList = style({ listStyle: "none", padding: 0, display: "grid" });

export const bookNow = style({
  paddingInline: vars.space.medium,
  "@media": {
    [breakpoints.narrowPhone]: { paddingInline: "0.75rem" },
    [breakpoints.zoomedPhone]: { display: "none" },
    [breakpoints.headerNavigation]: { paddingInline: vars.space.large },
  },
});

/** Book Now in the menu, where the header has no room for it (zoomedPhone): the spec's button still one tap away. */
export const menuBookNow = style({
  display: "none",
  marginTop: vars.space.small,
  "@media": { [breakpoints.zoomedPhone]: { display: "flex" } },
});
