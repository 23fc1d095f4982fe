// The owner can grow the content without failing the build: a scratch copy of the repository gets four more
// FAQ entries, a package with its own title and a piece of gear in app/content.ts and no other edit; then the
// production build, the byte budgets (the command `npm test` runs, against a site started from the copy) and
// the unit tests that read the content all pass there.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchCopy, type ScratchCopy } from "../support/scratch-copy";

const NEW_FAQ = [1, 2, 3, 4].map((n) => ({
  question: `Scratch question ${n}: can the owner add this one?`,
  answer: `Scratch answer ${n}. The page grows below the first round trip, and the build still passes.`,
}));
const NEW_PACKAGE = `{ hours: 5, of: "Room Rental", title: "Scratch Weekend Package", description: "Five prepaid hours at the weekend.", price: 140 },`;
const NEW_GEAR = "Scratch headphone amplifier";

/** content.ts with the additions, each where the owner would type it: at the end of its list. */
function grown(content: string): string {
  const steps: [RegExp, (...match: string[]) => string][] = [
    [
      /(export const faq: readonly FaqItem\[\] = \[[\s\S]*?)\n\];/,
      (_, list) =>
        `${list}\n${NEW_FAQ.map((f) => `  { question: ${JSON.stringify(f.question)}, answer: ${JSON.stringify(f.answer)} },`).join("\n")}\n];`,
    ],
    [/\n\] as const satisfies readonly \(PackageEntry/, (end) => `\n  ${NEW_PACKAGE}${end}`],
    [/(category: "Studio Features",\s*items: \[[^\]]*)\]/, (_, items) => `${items}, ${JSON.stringify(NEW_GEAR)}]`],
  ];
  return steps.reduce((source, [anchor, insert]) => {
    if (!anchor.test(source)) throw new Error(`content.ts no longer has ${anchor}: where does the owner add now?`);
    return source.replace(anchor, insert);
  }, content);
}

describe("content that grows", () => {
  let copy: ScratchCopy;

  beforeAll(() => {
    copy = scratchCopy();
    copy.edit("app/content.ts", grown);
  });

  afterAll(() => copy?.remove());

  it("with four more FAQ entries, a package and gear in content.ts alone, builds, keeps the byte budgets and its content tests", () => {
    const build = copy.run("npm", ["run", "build", "--silent"], 240_000);
    expect(build.code, build.output).toBe(0);
    // Every addition is in the copy's build, not lost on the way.
    const server = readFileSync(path.join(copy.dir, "build/index.js"), "utf8");
    for (const text of [...NEW_FAQ.map((f) => f.question), "Scratch Weekend Package", NEW_GEAR]) expect(server, text).toContain(text);

    const budgets = copy.run(process.execPath, ["scripts/test/check-budgets.mjs"], 120_000);
    expect(budgets.code, budgets.output).toBe(0);
    // A page measured at nothing would pass every budget: the first round trip was really measured.
    const firstRoundTrip = Number(/^ok +First round trip \(gzip\) +([\d.]+) KB/m.exec(budgets.output)?.[1]);
    expect(firstRoundTrip, budgets.output).toBeGreaterThan(1);

    // The unit tests that read the content (the whole unit project is `npm test`'s, minutes on a busy machine).
    const readers = readdirSync(path.join(copy.dir, "app"), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.test\.tsx?$/.test(file))
      .map((file) => path.join("app", file))
      .filter((file) => /from "(?:~|\.{1,2})\/(?:[\w/]*\/)?content"/.test(readFileSync(path.join(copy.dir, file), "utf8")));
    expect(readers).toContain(path.join("app", "content.test.ts"));
    const unit = copy.run(path.join(copy.dir, "node_modules/.bin/vitest"), ["run", "--project", "unit", ...readers], 240_000);
    expect(unit.code, unit.output).toBe(0);
    expect(unit.output).toMatch(new RegExp(`Test Files +${readers.length} passed`));
  }, 600_000);
});
