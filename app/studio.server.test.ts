// @vitest-environment node
import { describe, expect, it } from "vitest";
import { loadConfig } from "./studio.server";

describe("the site's configuration", () => {
  it("refuses to start in production without the relay secret the no-JS form needs", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/ENQUIRY_RELAY_SECRET is required in production/);
    expect(loadConfig({ NODE_ENV: "production", ENQUIRY_RELAY_SECRET: "s3cret" }).relaySecret).toBe("s3cret");
    expect(loadConfig({ NODE_ENV: "development" }).relaySecret).toBeUndefined();
  });

  it("refuses a secret key where the public one belongs", () => {
    expect(() => loadConfig({ NODE_ENV: "test", SUPABASE_ANON_KEY: "sb_secret_abc" })).toThrow(/secret key/);
  });
});
