import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { palette } from "./palette";

type Role = keyof typeof palette;

/** WCAG 2.2 relative luminance of an opaque `#rrggbb` colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: Role, b: Role): number {
  const [light, dark] = [luminance(palette[a]), luminance(palette[b])].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** Every text colour the styles put on each background (read from the *.css.ts files). */
const TEXT_ON: [text: Role, backgrounds: Role[]][] = [
  ["text", ["background", "surface", "surfaceRaised"]],
  ["textMuted", ["background", "surface", "surfaceRaised"]],
  ["accent", ["background", "surface", "surfaceRaised"]],
  ["accentText", ["accent", "accentHover"]],
  ["dangerBorder", ["background", "surface", "surfaceRaised"]],
  ["dangerText", ["dangerSurface"]],
  ["successText", ["successSurface"]],
];

// Every file of app/ that could hold a colour; the palette is the one place one is written.
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
const RAW_COLOUR = /#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(/i;

describe("theme", () => {
  it("writes no colour outside the palette: styles use vars.color, by role", () => {
    const app = path.resolve(__dirname, "..");
    const offenders = sources(app)
      .filter((file) => file !== path.join(__dirname, "palette.ts"))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .flatMap((line, i) => (RAW_COLOUR.test(line) ? [`${path.relative(app, file)}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });

  it.each(TEXT_ON.flatMap(([text, backgrounds]) => backgrounds.map((background) => [text, background] as const)))(
    "%s on %s has WCAG AA contrast for body text (4.5:1)",
    (text, background) => {
      expect(contrast(text, background)).toBeGreaterThanOrEqual(4.5);
    },
  );
});
