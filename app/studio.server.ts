/**
 * Runtime configuration of the site, read and validated once per process. Everything here can be
 * changed with environment variables without rebuilding; defaults are placeholders for local use.
 * Listed with their meaning in README.md and .env.example.
 */

import type { PublicEnv, StudioConfig } from "./config";

/** `relaySecret`: ENQUIRY_RELAY_SECRET, shared with the function; the no-JS form needs it. */
export type Config = { studio: StudioConfig; publicEnv: PublicEnv; relaySecret?: string };

function read(env: NodeJS.ProcessEnv, key: string, fallback: string): string {
  const value = env[key]?.trim();
  return value ? value : fallback;
}

function url(env: NodeJS.ProcessEnv, key: string, fallback: string): string {
  const value = read(env, key, fallback).replace(/\/+$/, "");
  const parsed = URL.canParse(value) ? new URL(value) : null;
  if (!parsed || !/^https?:$/.test(parsed.protocol)) {
    throw new Error(`${key} must be an http(s) URL, got "${value}"`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const email = read(env, "STUDIO_EMAIL", "bookings@studio.example");
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error(`STUDIO_EMAIL is not an e-mail address: "${email}"`);
  const anonKey = read(env, "SUPABASE_ANON_KEY", "local-anon-key");
  if (/service_role|sb_secret_/.test(anonKey) || jwtRole(anonKey) === "service_role") {
    throw new Error("SUPABASE_ANON_KEY holds a secret key; use the public anon or publishable key");
  }
  const relaySecret = env.ENQUIRY_RELAY_SECRET?.trim() || undefined;
  if (!relaySecret && env.NODE_ENV === "production") {
    // Without it the function cannot tell no-JS visitors apart, and the no-JS form cannot send at all.
    throw new Error(
      "ENQUIRY_RELAY_SECRET is required in production: set the same long random value on the site and as a secret of the function (README, Deployment)",
    );
  }
  return {
    relaySecret,
    studio: {
      name: read(env, "STUDIO_NAME", "Lakeshore Sound Studio"),
      email,
      address: {
        street: read(env, "STUDIO_STREET", "123 Example Street"),
        locality: "Etobicoke",
        region: "Ontario",
        postalCode: read(env, "STUDIO_POSTAL_CODE", "M8V 0A0"),
        country: "CA",
      },
      socialUrl: url(env, "STUDIO_SOCIAL_URL", "https://www.instagram.com/"),
      socialLabel: read(env, "STUDIO_SOCIAL_LABEL", "Instagram"),
      siteUrl: url(env, "SITE_URL", "http://localhost:3000"),
    },
    publicEnv: {
      supabaseUrl: url(env, "SUPABASE_URL", "http://127.0.0.1:54321"),
      supabaseAnonKey: anonKey,
    },
  };
}

function jwtRole(token: string): string | undefined {
  const payload = token.split(".")[1];
  if (!payload) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")).role;
  } catch {
    return undefined;
  }
}

let cached: Config | undefined;
/** The process's configuration; throws at first use if the environment is invalid. */
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}
