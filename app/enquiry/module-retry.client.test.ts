import { importWithRetry, retryAddress } from "./module-retry.client";

const ORIGIN = "http://127.0.0.1:3000";
const FILE = `${ORIGIN}/build/_shared/dist-UMYKEDY3.js`;

describe("retryAddress: the failed file at an address the page has not used", () => {
  it("reads the address Firefox and Chromium name in their errors", () => {
    for (const message of [`error loading dynamically imported module: ${FILE}`, `Failed to fetch dynamically imported module: ${FILE}`]) {
      expect(retryAddress(new TypeError(message), ORIGIN, 7)).toBe(`${FILE}?retry=7`);
    }
  });

  it("is null where the error names no address (WebKit), or one that is not the site's own built file", () => {
    expect(retryAddress(new TypeError("Importing a module script failed."), ORIGIN, 1)).toBeNull();
    expect(retryAddress(new TypeError(`error loading dynamically imported module: https://evil.example/build/x.js`), ORIGIN, 1)).toBeNull();
    expect(retryAddress(new TypeError(`error loading dynamically imported module: ${ORIGIN}/other/x.js`), ORIGIN, 1)).toBeNull();
    expect(retryAddress("not an error", ORIGIN, 1)).toBeNull();
  });

  it("reads the whole address, whatever the host holds (a site at studio.js.org), and without a sentence's full stop", () => {
    const file = "https://studio.js.org/build/_shared/dist-UMYKEDY3.js";
    expect(retryAddress(new TypeError(`error loading dynamically imported module: ${file}`), "https://studio.js.org", 3)).toBe(
      `${file}?retry=3`,
    );
    expect(retryAddress(new TypeError(`Failed to fetch dynamically imported module: ${file}.`), "https://studio.js.org", 3)).toBe(
      `${file}?retry=3`,
    );
  });

  it("is null for a file of the site's that is not a built script", () => {
    expect(retryAddress(new TypeError(`error loading dynamically imported module: ${ORIGIN}/build/manifest.json`), ORIGIN, 1)).toBeNull();
  });

  it("replaces a query the failed address had", () => {
    expect(retryAddress(new TypeError(`error loading dynamically imported module: ${FILE}?retry=1`), ORIGIN, 2)).toBe(`${FILE}?retry=2`);
  });
});

describe("importWithRetry", () => {
  it("returns the first load's module when it loads", async () => {
    const load = vi.fn(() => Promise.resolve("module"));
    expect(await importWithRetry(load)).toBe("module");
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("fails with the browser's error where it names no address (WebKit): the Send tries the same address again itself", async () => {
    const load = vi.fn().mockRejectedValueOnce(new TypeError("Importing a module script failed."));
    await expect(importWithRetry(load)).rejects.toThrow("Importing a module script failed.");
    expect(load).toHaveBeenCalledTimes(1);
  });
});
