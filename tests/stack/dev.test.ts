// `npm run dev` as a developer uses it, on a copy of this repository (so the edits below touch nothing
// here): the same stack as `npm run stack`, the site under `remix dev`. An edit of app/content.ts
// shows in the open browser page without a restart (live reload), and an edit of the function is
// served by the restarted function (Deno's watch mode).
import { spawn } from "node:child_process";
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH } from "../../scripts/local-stack/chromium.mjs";
import { portsToEnv } from "../../scripts/local-stack/environment.mjs";
import { freePort } from "../../scripts/local-stack/ports.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const copy = mkdtempSync(path.join(tmpdir(), "studio-dev-"));
// As root the database runs as the `postgres` user, which must reach its data folder inside the copy.
chmodSync(copy, 0o755);
const ports: Record<string, number> = {};
let stop: () => Promise<void>;
let output = "";

beforeAll(async () => {
  // The repository as a developer has it: sources copied, dependencies linked, no build yet.
  for (const entry of ["app", "public", "supabase", "scripts", "package.json", "remix.config.js", "tsconfig.json", "remix.env.d.ts"]) {
    cpSync(path.join(ROOT, entry), path.join(copy, entry), {
      recursive: true,
      filter: (source) => !/[/\\](node_modules|build)$/.test(source),
    });
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"));
  symlinkSync(path.join(ROOT, "scripts/supabase-cli/node_modules"), path.join(copy, "scripts/supabase-cli/node_modules"));
  for (const name of ["site", "function", "db", "mailUi", "smtp"]) ports[name] = await freePort();
  const child = spawn(process.execPath, ["scripts/local-stack/cli.mjs", "dev"], {
    cwd: copy,
    env: {
      ...process.env,
      STACK_DB_DIR: path.join(copy, ".stack/db"),
      // No env files: a developer's own (copied with supabase/) must not change the test.
      STACK_ENV_DIR: path.join(copy, "no-env-files"),
      ...portsToEnv(ports),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  stop = async () => {
    child.kill("SIGINT");
    await exited;
  };
  const deadline = Date.now() + 150_000;
  while (!output.includes("is running")) {
    if (Date.now() > deadline) throw new Error(`npm run dev did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 180_000);

afterAll(async () => {
  await stop?.();
  rmSync(copy, { recursive: true, force: true });
});

/** Replaces `from` with `to` in a file of the copy. */
function edit(file: string, from: string, to: string) {
  const text = readFileSync(path.join(copy, file), "utf8");
  if (!text.includes(from)) throw new Error(`${from} is not in ${file}`);
  writeFileSync(path.join(copy, file), text.replace(from, to));
}

describe("npm run dev", () => {
  test("an edit of app/content.ts reloads the open page with the new text, without a restart", async () => {
    expect(output).toContain("in development (edits reload the page)");
    const browser = await chromium.launch({ executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      const logged: string[] = [];
      page.on("console", (m) => (logged.push(`${m.type()}: ${m.text()}`), m.type() === "error" && errors.push(m.text())));
      page.on("framenavigated", (frame) => frame === page.mainFrame() && logged.push(`navigated: ${frame.url()}`));
      const liveReload = page.waitForEvent("websocket", { timeout: 60_000 });
      await page.goto(`http://127.0.0.1:${ports.site}/`);
      await expect.poll(() => page.locator("#services").textContent()).toContain("Everything you need to take a song");
      // The page has made its live-reload socket (a loaded machine makes it late); a second more for it to open.
      const socket = await liveReload;
      socket.on("close", () => logged.push("live-reload socket closed"));
      socket.on("socketerror", (error) => logged.push(`live-reload socket error: ${error}`));
      await page.waitForTimeout(1000);
      edit("app/content.ts", "Everything you need to take a song", "Edited in development: everything you need to take a song");
      // A rebuild takes 5 s on a quiet machine; beside the rest of `npm test` on two cores it took 52 s.
      const before = output.length;
      // remix dev tells the page to reload as its app server restarts, and a reload that comes before the
      // server listens again ends on the browser's error page. Chrome reloads that page by itself once the
      // server answers (its auto-reload); the headless shell the tests drive does not, so the test does.
      await expect
        .poll(
          async () => {
            if (page.url().startsWith("chrome-error:")) await page.reload().catch(() => undefined);
            return page
              .locator("#services")
              .textContent({ timeout: 5_000 })
              .catch(() => "");
          },
          { timeout: 150_000, interval: 500 },
        )
        .toContain("Edited in development")
        .catch((error: Error) => {
          throw new Error(`${error.message}\nnpm run dev said after the edit:\n${output.slice(before)}\nthe page:\n${logged.join("\n")}`);
        });
      expect(errors.filter((e) => !/WebSocket|favicon/.test(e))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 200_000);

  test("an edit of the function restarts it with the change", async () => {
    const url = `http://127.0.0.1:${ports.function}/functions/v1/send-contact-email/nowhere`;
    expect(await (await fetch(url)).json()).toMatchObject({ message: "Not found." });
    edit("supabase/functions/send-contact-email/http.ts", `message: "Not found."`, `message: "Not found (edited)."`);
    await expect
      .poll(
        async () =>
          (
            await fetch(url).then(
              (r) => r.json(),
              () => ({}),
            )
          ).message,
        { timeout: 60_000, interval: 250 },
      )
      .toBe("Not found (edited).");
  });
});
