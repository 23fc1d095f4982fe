/**
 * Every document the site serves is valid HTML for the Nu HTML Checker (npm `vnu-jar`, Java 17+): the
 * home page, the 404, the router's error screen, the page a sent no-JavaScript form goes on to and each page
 * a refused one answers with.
 * The checker refuses localhost URLs, so the pages are saved and checked in one run of the JVM.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { APIRequestContext } from "@playwright/test";
import { SENT_PAGE } from "~/enquiry/outcome";
import { expect, test } from "./fixtures";

const VNU_JAR = path.join(path.dirname(createRequire(import.meta.url).resolve("vnu-jar/package.json")), "build/dist/vnu.jar");
const JAVA = process.env.JAVA ?? "java";

async function javaMissing() {
  try {
    await promisify(execFile)(JAVA, ["-version"]);
    return false;
  } catch {
    return true;
  }
}

type VnuMessage = { type: string; subType?: string; url: string; lastLine?: number; message: string; extract?: string };

/** The site's documents, each as a visitor's browser would be given it. */
async function documents(request: APIRequestContext) {
  const post = (url: string, form: Record<string, string>) => request.post(url, { form, maxRedirects: 0 });
  const visitor = (title: string) => ({
    name: "Ada Lovelace",
    email: "ada@example.com",
    projectTitle: title,
    projectDetails: "",
    website: "",
  });
  const stamp = Date.now().toString(36);
  return {
    home: await request.get("/"),
    "not-found": await request.get("/no/such/page"),
    "error-screen": await post("/not-a-page", {}),
    "sent without JavaScript": await request.get(SENT_PAGE),
    "a required field blank": await post("/?index", { ...visitor(`Blank ${stamp}`), name: " " }),
    "an address mail servers refuse": await post("/?index", { ...visitor(`Dots ${stamp}`), email: "ada..lovelace@example.com" }),
  };
}

test.describe("HTML validity (Nu HTML Checker)", () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) < 800, "one run is enough: the documents are the same at every width");

  test("every page the site serves has no errors", async ({ request }) => {
    test.skip(await javaMissing(), `no Java runtime (${JAVA}): install default-jre-headless (scripts/test/setup.sh) to check HTML`);
    test.setTimeout(90_000);
    const dir = await mkdtemp(path.join(tmpdir(), "html-validity-"));
    try {
      const files: Record<string, string> = {};
      for (const [name, response] of Object.entries(await documents(request))) {
        expect(response.headers()["content-type"], name).toMatch(/^text\/html/);
        const file = path.join(dir, `${name.replaceAll(/\W+/g, "-")}.html`);
        await writeFile(file, await response.text());
        files[path.basename(file)] = name;
      }
      // --exit-zero-always: the messages are the verdict, read from JSON (on stderr).
      const { stderr } = await promisify(execFile)(
        JAVA,
        ["-jar", VNU_JAR, "--format", "json", "--exit-zero-always", "--no-langdetect", ...Object.keys(files).map((f) => path.join(dir, f))],
        { maxBuffer: 16 * 1024 * 1024 },
      );
      const { messages } = JSON.parse(stderr) as { messages: VnuMessage[] };
      const errors = messages
        .filter((m) => m.type === "error" || m.subType === "fatal")
        .map((m) => `${files[path.basename(new URL(m.url).pathname)]}:${m.lastLine ?? "?"}: ${m.message} [${m.extract?.trim() ?? ""}]`);
      expect(errors).toEqual([]);
      expect(Object.keys(files)).toHaveLength(6);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
