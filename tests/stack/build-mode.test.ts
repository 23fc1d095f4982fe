// Which build is in build/: a development build (`npm run dev`) served in production fails on every
// page, so the stack rebuilds it first (scripts/local-stack/stack.mjs). It reads the build's exported
// `mode` without running it, in either form a build has.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../../scripts/local-stack/processes.mjs";
import { buildMode } from "../../scripts/local-stack/stack.mjs";

it("reads the mode a server build exports, as remix dev prints it and as npm run build minifies it", () => {
  expect(buildMode('var mode = "development";\nexport {\n  entry,\n  mode,\n  publicPath\n};')).toBe("development");
  expect(buildMode('var mode = "production";\nexport {\n  mode\n};')).toBe("production");
  expect(buildMode('var Vg="production",Wg="public/build";export{Jg as entry,Kg as future,Vg as mode,Xg as publicPath};')).toBe(
    "production",
  );
  expect(buildMode('var a="development";export{a as mode};')).toBe("development");
  expect(buildMode("export{a as entry};")).toBeUndefined();
});

it.skipIf(!existsSync(path.join(ROOT, "build/index.js")))("reads the mode of the build in build/ (whichever was made last)", () => {
  expect(["production", "development"]).toContain(buildMode(readFileSync(path.join(ROOT, "build/index.js"), "utf8")));
});
