// The layering of `npm run stack`'s configuration (scripts/local-stack/developer-config.mjs), without
// starting a stack: what each layer wins over, what stays the stack's, and what the banner says.
// The stack itself is started with these layers in configuration.test.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { describeConfig, developerConfig, STACK_WIRING } from "../../scripts/local-stack/developer-config.mjs";

const local = {
  function: {
    RATE_LIMIT_PER_CLIENT: "1000",
    MAIL_TRANSPORT: "smtp",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: "54325",
    ENQUIRY_RELAY_SECRET: "local-relay",
  },
  site: { SUPABASE_URL: "http://127.0.0.1:54321", STUDIO_NAME: "Local Studio", ENQUIRY_RELAY_SECRET: "local-relay" },
};
const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A repository folder holding these env files. */
function repo(files: { site?: string; function?: string }) {
  const dir = mkdtempSync(path.join(tmpdir(), "studio-env-"));
  folders.push(dir);
  if (files.site !== undefined) writeFileSync(path.join(dir, ".env"), files.site);
  if (files.function !== undefined) {
    mkdirSync(path.join(dir, "supabase/functions"), { recursive: true });
    writeFileSync(path.join(dir, "supabase/functions/.env"), files.function);
  }
  return dir;
}

describe("npm run stack's configuration", () => {
  test("with no files and a quiet shell, the stack's local values alone, and the banner says so", () => {
    const config = developerConfig({ dir: repo({}), local, shell: {} });
    expect(config.env).toEqual({ function: {}, site: {} });
    expect(describeConfig(config)).toEqual(["Configuration     no .env or supabase/functions/.env", "  the stack's local values only"]);
  });

  test("a file wins over the local values, the shell over the file; each named with its source", () => {
    const dir = repo({ function: "RATE_LIMIT_PER_CLIENT=5\nMIN_FILL_MS=0\n", site: 'STUDIO_NAME="File Studio" # quoted, commented\n' });
    const config = developerConfig({ dir, local, shell: { STUDIO_NAME: "Shell Studio" }, known: ["STUDIO_NAME"] });
    expect(config.env.function).toMatchObject({ RATE_LIMIT_PER_CLIENT: "5", MIN_FILL_MS: "0", STUDIO_NAME: "Shell Studio" });
    expect(config.env.site).toMatchObject({ STUDIO_NAME: "Shell Studio" });
    expect(config.applied).toEqual([
      { name: "MIN_FILL_MS", from: "supabase/functions/.env" },
      { name: "RATE_LIMIT_PER_CLIENT", from: "supabase/functions/.env" },
      { name: "STUDIO_NAME", from: "shell" },
    ]);
    expect(config.files).toEqual([
      { path: "supabase/functions/.env", count: 2 },
      { path: ".env", count: 1 },
    ]);
  });

  test("where the stack's parts listen stays the stack's, from a file or the shell; the shell's port variables move them instead", () => {
    const dir = repo({
      function: "SMTP_HOST=host.docker.internal\nSMTP_PORT=54325\n",
      site: "SUPABASE_URL=https://abcdefghijklmnopqrst.supabase.co\n",
    });
    const config = developerConfig({ dir, local, shell: { SMTP_PORT: "2525", SITE_URL: "https://studio.example" }, known: ["SITE_URL"] });
    for (const side of ["function", "site"] as const)
      for (const name of STACK_WIRING[side]) expect(config.env[side], `${side} ${name}`).not.toHaveProperty(name);
    expect(config.ignored).toEqual([
      { name: "SITE_URL", from: "shell" },
      { name: "SMTP_HOST", from: "supabase/functions/.env" },
      { name: "SMTP_PORT", from: "supabase/functions/.env" },
      { name: "SUPABASE_URL", from: ".env" },
    ]);
    expect(describeConfig(config)).toContain(
      "  kept the stack's own SITE_URL (shell), SMTP_HOST (supabase/functions/.env), SMTP_PORT (supabase/functions/.env), SUPABASE_URL (.env)",
    );
  });

  test("ENQUIRY_RELAY_SECRET set on one side serves both; two different values are a warning", () => {
    const one = developerConfig({ dir: repo({ site: "ENQUIRY_RELAY_SECRET=from-the-site-file\n" }), local, shell: {} });
    expect([one.env.function.ENQUIRY_RELAY_SECRET, one.env.site.ENQUIRY_RELAY_SECRET]).toEqual([
      "from-the-site-file",
      "from-the-site-file",
    ]);
    expect(one.warnings).toEqual([]);
    const two = developerConfig({
      dir: repo({ site: "ENQUIRY_RELAY_SECRET=one-value\n", function: "ENQUIRY_RELAY_SECRET=another-value\n" }),
      local,
      shell: {},
    });
    expect(two.warnings).toEqual([
      "ENQUIRY_RELAY_SECRET differs between .env and supabase/functions/.env: the function will refuse the site's relay",
    ]);
  });

  test("a RESEND_API_KEY switches mail to Resend unless MAIL_TRANSPORT is given too", () => {
    const key = developerConfig({ dir: repo({}), local, shell: { RESEND_API_KEY: "re_abc" }, known: ["RESEND_API_KEY", "MAIL_TRANSPORT"] });
    expect(key.env.function.MAIL_TRANSPORT).toBe("resend");
    const both = developerConfig({
      dir: repo({ function: "MAIL_TRANSPORT=smtp\n" }),
      local,
      shell: { RESEND_API_KEY: "re_abc" },
      known: ["RESEND_API_KEY", "MAIL_TRANSPORT"],
    });
    expect(both.env.function.MAIL_TRANSPORT).toBe("smtp");
  });

  test("the banner names variables, never their values", () => {
    const secret = "re_TheRealKeyNobodyMaySee";
    const lines = describeConfig(developerConfig({ dir: repo({ function: `RESEND_API_KEY=${secret}\n` }), local, shell: {} }));
    expect(lines.join("\n")).toContain("RESEND_API_KEY (supabase/functions/.env)");
    expect(lines.join("\n")).not.toContain(secret);
  });
});
