// Text drawn from whole Unicode categories, for property tests of what "empty" and "one line" mean
// (supabase/functions/_shared/contact-message.ts: neutralize, isBlank).
import fc from "fast-check";

/** Every code point up to U+3FFFF and in planes 14-16 that `pattern` matches (once per pattern). */
const pools = new Map<string, string[]>();
function codePoints(pattern: string): string[] {
  let pool = pools.get(pattern);
  if (!pool) {
    const test = new RegExp(`^${pattern}$`, "u");
    pool = [];
    const ranges: [number, number][] = [
      [0, 0x3ffff],
      [0xe0000, 0x10ffff],
    ];
    for (const [from, to] of ranges) {
      for (let point = from; point <= to; point++) {
        // Halves of a surrogate pair are their own class (LONE_SURROGATE), tested above.
        if (point >= 0xd800 && point <= 0xdfff) continue;
        const char = String.fromCodePoint(point);
        if (test.test(char)) pool.push(char);
      }
    }
    pools.set(pattern, pool);
  }
  return pool;
}
/** A character of the Unicode general category (or class) `pattern`, drawn from all of it. */
const ofCategory = (pattern: string) => {
  const pool = codePoints(pattern);
  return fc.integer({ min: 0, max: pool.length - 1 }).map((i) => pool[i]!);
};

/** What a reader sees nothing of: white space of every kind, controls, format and private-use code points, noncharacters, marks alone, fillers. */
export const unseen = fc.oneof(
  ...["\\p{Zs}", "\\p{Zl}", "\\p{Zp}", "\\p{Cc}", "\\p{Cf}", "\\p{Co}", "\\p{Mn}", "\\p{Mc}", "\\p{Me}"].map(ofCategory),
  fc.constantFrom("\u115F", "\u1160", "\u3164", "\uFFA0", "\u180E", "\u2800", "\uFFFC", "\u{1D159}", "\uFFFE", "\u{10FFFF}", "\r\n"),
);
/**
 * Anything at all, weighted towards what is hard: the unseen above, and letters, digits, punctuation,
 * symbols and code points this runtime does not know yet (a newer Unicode's letters, to an older one).
 */
const anyCharacter = fc.oneof(
  { arbitrary: unseen, weight: 3 },
  ...["\\p{L}", "\\p{N}", "\\p{P}", "\\p{S}", "\\p{Cn}"].map((pattern) => ({ arbitrary: ofCategory(pattern), weight: 1 })),
  { arbitrary: fc.constantFrom("a", "Z", "7", " ", "-", "@"), weight: 1 },
);
export const unseenText = fc.array(unseen, { minLength: 1, maxLength: 12 }).map((chars) => chars.join(""));
export const anyText = fc.array(anyCharacter, { minLength: 1, maxLength: 16 }).map((chars) => chars.join(""));
