// @vitest-environment node
import { describe, expect, it } from "vitest";
import { DEPLOYED_SITE_ENV, SITE_VARIABLES } from "../tests/support/deployed-site";
import { readConfig } from "./config.server";

const deployed = DEPLOYED_SITE_ENV;
const problems = (env: Record<string, string | undefined>) => readConfig(env).fatal.map((p) => `${p.variable} ${p.problem}`);

describe("the site's configuration", () => {
  it("accepts a real-looking production configuration", () => {
    expect(problems(deployed)).toEqual([]);
    expect(readConfig(deployed).config.relaySecret).toBe(deployed.ENQUIRY_RELAY_SECRET);
  });

  it("takes a social link with a path, query and fragment (only the site's and Supabase's URLs are host only)", () => {
    const link = "https://www.youtube.com/@lakeshoresound/videos?view=0#latest";
    expect(problems({ ...deployed, STUDIO_SOCIAL_URL: link })).toEqual([]);
    expect(readConfig({ ...deployed, STUDIO_SOCIAL_URL: link }).config.studio.socialUrl).toBe(link);
  });

  it.each([
    ["a missing relay secret", { ENQUIRY_RELAY_SECRET: undefined }, /^ENQUIRY_RELAY_SECRET is required/],
    [
      "the .env.example relay secret",
      { ENQUIRY_RELAY_SECRET: "change-me-to-a-long-random-string-shared-with-the-function" },
      /^ENQUIRY_RELAY_SECRET is the placeholder/,
    ],
    ["a short relay secret", { ENQUIRY_RELAY_SECRET: "s3cret" }, /^ENQUIRY_RELAY_SECRET is 6 characters long; use at least 32/],
    ["a local site URL", { SITE_URL: "http://localhost:3000" }, /^SITE_URL points at this machine/],
    ["an example site URL", { SITE_URL: "https://studio.example" }, /^SITE_URL points at this machine or a documentation domain/],
    ["a plain-http site URL", { SITE_URL: "http://lakeshoresound.ca" }, /^SITE_URL must be an https:\/\/ URL/],
    ["the placeholder project URL", { SUPABASE_URL: "https://your-project-ref.supabase.co" }, /^SUPABASE_URL is the placeholder/],
    ["the local function URL", { SUPABASE_URL: "http://127.0.0.1:54321" }, /^SUPABASE_URL points at this machine/],
    ["the placeholder anon key", { SUPABASE_ANON_KEY: "sb_publishable_xxxxxxxxxxxxxxxxxxxx" }, /^SUPABASE_ANON_KEY is the placeholder/],
    ["a studio address at an example domain", { STUDIO_EMAIL: "bookings@studio.example" }, /^STUDIO_EMAIL is at a documentation domain/],
    ["the placeholder street", { STUDIO_STREET: "123 Example Street" }, /^STUDIO_STREET is the placeholder/],
    ["a missing postal code", { STUDIO_POSTAL_CODE: "" }, /^STUDIO_POSTAL_CODE is required/],
    ["the placeholder social link", { STUDIO_SOCIAL_URL: "https://www.instagram.com/yourstudio" }, /^STUDIO_SOCIAL_URL is the placeholder/],
  ])("refuses %s in production, naming the variable", (_what, change, message) => {
    const found = problems({ ...deployed, ...change });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it.each([
    ["a malformed URL", { SITE_URL: "not a url" }, /^SITE_URL must be an http\(s\) URL/],
    ["a port out of range", { PORT: "70000" }, /^PORT must be a port number/],
    ["a timeout out of range", { SERVER_HEADERS_TIMEOUT_MS: "0" }, /^SERVER_HEADERS_TIMEOUT_MS must be a whole number/],
    ["a timeout that is not a number", { SERVER_REQUEST_TIMEOUT_MS: "30s" }, /^SERVER_REQUEST_TIMEOUT_MS must be a whole number/],
    [
      "a request timeout shorter than the headers timeout",
      { SERVER_HEADERS_TIMEOUT_MS: "20000", SERVER_REQUEST_TIMEOUT_MS: "10000" },
      /^SERVER_REQUEST_TIMEOUT_MS must not be shorter/,
    ],
    ["an unreadable TRUST_PROXY", { TRUST_PROXY: "10.0.0.0/99" }, /^TRUST_PROXY /],
    ["TRUST_PROXY=true (any hop)", { TRUST_PROXY: "true" }, /^TRUST_PROXY true would trust any hop/],
    ["a site URL with a query", { SITE_URL: "https://lakeshoresound.ca?x=1" }, /^SITE_URL must be a scheme and host only/],
    ["a site URL with a path", { SITE_URL: "https://lakeshoresound.ca/studio" }, /^SITE_URL must be a scheme and host only/],
    [
      "a Supabase URL with the functions path",
      { SUPABASE_URL: "https://abcdefghijklmnopqrst.supabase.co/functions/v1" },
      /^SUPABASE_URL must be a scheme and host only/,
    ],
    ["a studio address without a domain", { STUDIO_EMAIL: "owner@lakeshoresound" }, /^STUDIO_EMAIL is not an e-mail address/],
    ["a secret key where the public one belongs", { SUPABASE_ANON_KEY: "sb_secret_abcdefgh" }, /^SUPABASE_ANON_KEY holds a secret key/],
    ["a studio address that is not one", { STUDIO_EMAIL: "bookings" }, /^STUDIO_EMAIL is not an e-mail address/],
  ])("refuses %s in every mode", (_what, change, message) => {
    for (const env of [
      { ...deployed, ...change },
      { NODE_ENV: "development", ...change },
      { ...deployed, LOCAL_STACK: "1", ...change },
    ]) {
      expect(
        problems(env).some((p) => message.test(p)),
        JSON.stringify(env),
      ).toBe(true);
    }
  });

  it.each([
    ["TRUSTPROXY", "TRUST_PROXY"],
    ["Trust_Proxy", "TRUST_PROXY"],
    ["STUDIO_EMAILL", "STUDIO_EMAIL"],
    ["ENQUIRY_RELAY_SECRT", "ENQUIRY_RELAY_SECRET"],
    ["SUPABASE_ANNON_KEY", "SUPABASE_ANON_KEY"],
    ["SERVER_REQUEST_TIMEOUT", "SERVER_REQUEST_TIMEOUT_MS"],
    ["TRUSTED_PROXIES", "TRUST_PROXY"],
    ["TRUSTED_PROXY", "TRUST_PROXY"],
    ["TRUST_PROXIES", "TRUST_PROXY"],
  ])("refuses a setting under a misspelled name (%s) in production, and warns locally", (name, meant) => {
    const line = `${name} is not a setting: did you mean ${meant}? (its value is ignored)`;
    expect(problems({ ...deployed, [name]: "x" })).toContain(line);
    const local = readConfig({ NODE_ENV: "development", [name]: "x" });
    expect(local.fatal).toEqual([]);
    expect(local.warnings.map((p) => `${p.variable} ${p.problem}`)).toContain(line);
  });

  it("takes none of this machine's own variables, nor the Docker image's, for a misspelling", () => {
    const machine = {
      ...process.env,
      HOSTNAME: "a1b2c3",
      NODE_VERSION: "22.23.3",
      YARN_VERSION: "1.22.22",
      PATH: "/usr/bin",
      HOME: "/app",
    };
    expect(problems({ ...machine, ...deployed })).toEqual([]);
  });

  it("refuses every placeholder at once, one line each", () => {
    const found = problems({ NODE_ENV: "production" });
    for (const variable of SITE_VARIABLES) {
      expect(
        found.filter((p) => p.startsWith(`${variable} `)),
        variable,
      ).toHaveLength(1);
    }
  });

  it("takes local values as warnings with LOCAL_STACK=1, and as nothing in development", () => {
    const local = readConfig({ NODE_ENV: "production", LOCAL_STACK: "1", ENQUIRY_RELAY_SECRET: "local" });
    expect(local.fatal).toEqual([]);
    expect(local.warnings.map((p) => p.variable)).toContain("ENQUIRY_RELAY_SECRET");
    const dev = readConfig({ NODE_ENV: "development" });
    expect([...dev.fatal, ...dev.warnings]).toEqual([]);
  });

  it("reads the relay secret without surrounding white space, as the function does", () => {
    expect(readConfig({ ...deployed, ENQUIRY_RELAY_SECRET: ` ${deployed.ENQUIRY_RELAY_SECRET}\n` }).config.relaySecret).toBe(
      deployed.ENQUIRY_RELAY_SECRET,
    );
  });

  it("trusts no proxy by default, and the hops or ranges TRUST_PROXY names", () => {
    expect(readConfig(deployed).config.trustProxy.isTrusted("127.0.0.1", 0)).toBe(false);
    const hops = readConfig({ ...deployed, TRUST_PROXY: "1" }).config.trustProxy;
    expect([hops.isTrusted("10.0.0.1", 0), hops.isTrusted("10.0.0.2", 1)]).toEqual([true, false]);
    const ranges = readConfig({ ...deployed, TRUST_PROXY: "loopback, 173.245.48.0/20" }).config.trustProxy;
    expect([ranges.isTrusted("127.0.0.1", 0), ranges.isTrusted("173.245.48.9", 1), ranges.isTrusted("203.0.113.9", 1)]).toEqual([
      true,
      true,
      false,
    ]);
  });
});
