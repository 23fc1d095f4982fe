// The site's server as it starts in production (remix-serve on the production build, as the Docker
// image runs it): a configuration that cannot work ends the process before it listens, one line per
// problem; real-looking values start it.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, isListening } from "../../scripts/local-stack/ports.mjs";
import { DEPLOYED_SITE_ENV, EXAMPLE_SITE_ENV, SITE_VARIABLES } from "../support/deployed-site";

const ROOT = path.resolve(import.meta.dirname, "../..");

const DEPLOYED = DEPLOYED_SITE_ENV;

/** Starts remix-serve with exactly `env` (no variables of this process leak in); resolves when it exits or listens. */
async function start(env: Record<string, string | undefined>) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/@remix-run/serve/dist/cli.js"), "build/index.js"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: String(port), ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const code = await Promise.race([exited, new Promise<"running">((r) => setTimeout(() => r("running"), 100))]);
    if (code !== "running") return { code, output, listened: false };
    if (await isListening(port)) {
      child.kill("SIGTERM");
      await exited;
      return { code: null, output, listened: true };
    }
    if (Date.now() > deadline) throw new Error(`neither listened nor exited:\n${output}`);
  }
}

describe("the site's server at start, in production", () => {
  it("starts with a real-looking configuration", async () => {
    const { listened, output } = await start(DEPLOYED);
    expect(listened, output).toBe(true);
  });

  it.each([
    ["no relay secret", { ENQUIRY_RELAY_SECRET: undefined }, "ENQUIRY_RELAY_SECRET is required"],
    [
      "the .env.example relay secret",
      { ENQUIRY_RELAY_SECRET: "change-me-to-a-long-random-string-shared-with-the-function" },
      "ENQUIRY_RELAY_SECRET is the placeholder",
    ],
    ["a 6-character relay secret", { ENQUIRY_RELAY_SECRET: "s3cret" }, "ENQUIRY_RELAY_SECRET is 6 characters long"],
    ["a localhost site URL", { SITE_URL: "http://localhost:3000" }, "SITE_URL points at this machine"],
    ["an example inbox", { STUDIO_EMAIL: "bookings@studio.example" }, "STUDIO_EMAIL is at a documentation domain"],
    [
      "a secret key where the public one belongs",
      { SUPABASE_ANON_KEY: "sb_secret_abcdefghijklmnop" },
      "SUPABASE_ANON_KEY holds a secret key",
    ],
    ["a timeout out of range", { SERVER_HEADERS_TIMEOUT_MS: "5" }, "SERVER_HEADERS_TIMEOUT_MS must be a whole number"],
    ["a port out of range", { PORT: "99999" }, "PORT must be a port number"],
  ])("with %s, exits with status 1 before it listens, naming the variable", async (_what, change, message) => {
    const { code, listened, output } = await start({ ...DEPLOYED, ...change });
    expect(listened).toBe(false);
    expect(code).toBe(1);
    expect(output).toContain(message);
    expect(output).not.toContain("[remix-serve]");
  });

  it("with every placeholder of .env.example, exits naming each one on a line of its own", async () => {
    const { code, output } = await start(EXAMPLE_SITE_ENV);
    expect(code).toBe(1);
    const lines = output.split("\n").filter((line) => line.startsWith("  - "));
    for (const variable of SITE_VARIABLES) {
      expect(
        lines.filter((line) => line.startsWith(`  - ${variable} `)),
        variable,
      ).toHaveLength(1);
    }
  });

  it("with local values and LOCAL_STACK=1 (npm run stack, the tests, the container test), starts and warns", async () => {
    const { listened, output } = await start({ NODE_ENV: "production", LOCAL_STACK: "1", ENQUIRY_RELAY_SECRET: "local" });
    expect(listened).toBe(true);
    expect(output).toContain("in a deployment these would be refused");
  });
});
