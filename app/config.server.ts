/**
 * The site's whole configuration, read from the environment and checked once, when the server starts
 * (entry.server calls `startupConfig()` before remix-serve listens). Every variable is listed with its
 * meaning in README.md and .env.example; the checks are in docs/decisions/014.
 *
 * - A value that cannot work anywhere (a malformed URL or address, a number out of range, a secret key
 *   where the public one belongs) is refused in every mode.
 * - In production (NODE_ENV=production) a missing value, a placeholder from .env.example, a secret
 *   shorter than 32 characters, or a local or example URL or address is refused too: the server prints
 *   one line per problem and exits with status 1. LOCAL_STACK=1 turns these into warnings for a local
 *   run of the production build (npm run stack, the tests, the container test).
 */
import proxyAddr from "proxy-addr";
import {
  type ConfigProblem,
  isExampleAddress,
  isPlaceholder,
  misspelledVariables,
  publicUrlProblem,
  readSecret,
  secretProblem,
} from "../supabase/functions/_shared/config-checks.ts";
import { isDeliverableEmail } from "../supabase/functions/_shared/contact-message";
import type { PublicEnv, StudioConfig } from "./config.types";

/** The longest the no-JS form's body may take to arrive (less where SERVER_REQUEST_TIMEOUT_MS leaves less). */
export const FORM_READ_TIMEOUT_MS = 10_000;

export type SiteConfig = {
  studio: StudioConfig;
  publicEnv: PublicEnv;
  /** ENQUIRY_RELAY_SECRET, shared with the function: the site vouches for no-JS visitors with it. */
  relaySecret?: string;
  /** Time limits of the HTTP server (app/server/http-server.server.ts). */
  server: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /**
     * How long the no-JS form's body may take to arrive once its headers have: within the request's time
     * less the headers' (so the visitor gets the form's 408 page before Node cuts the connection), at most
     * FORM_READ_TIMEOUT_MS.
     */
    formBodyTimeoutMs: number;
  };
  /** TRUST_PROXY as written, and as proxy-addr's test of which hops are trusted proxies. */
  trustProxy: { setting: string; isTrusted: (address: string, hop: number) => boolean };
  /** NODE_ENV=production. */
  production: boolean;
  /** NODE_ENV=development (`npm run dev`): the page may open the live-reload socket of `remix dev`. */
  liveReload: boolean;
};

type Env = Record<string, string | undefined>;

const DEFAULTS = {
  siteUrl: "http://localhost:3000",
  supabaseUrl: "http://127.0.0.1:54321",
  anonKey: "local-anon-key",
  email: "bookings@studio.example",
  name: "Lakeshore Sound Studio",
  street: "123 Example Street",
  postalCode: "M8V 0A0",
  socialUrl: "https://www.instagram.com/",
  socialLabel: "Instagram",
};

/** Reads the configuration; never throws. `fatal` problems stop the server; `warnings` are printed. */
export function readConfig(source: Env = process.env): { config: SiteConfig; fatal: ConfigProblem[]; warnings: ConfigProblem[] } {
  // Every name looked up is recorded: what is set but never read, and looks like one, is a misspelling.
  const read = new Set<string>();
  const env = new Proxy(source, { get: (target, key) => (typeof key === "string" && read.add(key), target[key as string]) });
  const production = env.NODE_ENV === "production";
  const strict = production && env.LOCAL_STACK !== "1";
  const fatal: ConfigProblem[] = [];
  const warnings: ConfigProblem[] = [];
  /** A problem of a value that cannot work anywhere. */
  const broken = (variable: string, problem: string) => fatal.push({ variable, problem });
  /** A problem of a value that works locally but not in a real deployment. */
  const notForProduction = (variable: string, problem: string | undefined) => {
    if (problem) (strict ? fatal : production ? warnings : []).push({ variable, problem });
  };
  const text = (variable: string, fallback: string) => {
    const value = env[variable]?.trim();
    if (!value) notForProduction(variable, "is required");
    else if (isPlaceholder(value)) notForProduction(variable, "is the placeholder from .env.example");
    return value || fallback;
  };
  const url = (variable: string, fallback: string, { hostOnly = false } = {}) => {
    const given = env[variable]?.trim();
    const value = (given || fallback).replace(/\/+$/, "");
    const parsed = URL.canParse(value) ? new URL(value) : null;
    if (!parsed || !/^https?:$/.test(parsed.protocol)) {
      broken(variable, `must be an http(s) URL, got "${value}"`);
      return fallback;
    }
    // SITE_URL and SUPABASE_URL name a whole host: a path, query or fragment would end up in every
    // link and call built on them. (A link such as the studio's social page may have them.)
    if (hostOnly && (parsed.pathname !== "/" || parsed.search || parsed.hash || parsed.username || parsed.password)) {
      broken(variable, `must be a scheme and host only (https://host), without a path, query or fragment, got "${value}"`);
      return fallback;
    }
    notForProduction(variable, publicUrlProblem(given?.replace(/\/+$/, "")));
    return value;
  };
  const milliseconds = (variable: string, fallback: number, [min, max]: [number, number]) => {
    const raw = env[variable]?.trim();
    if (!raw) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      broken(variable, `must be a whole number of milliseconds from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return Number(raw);
  };

  const email = text("STUDIO_EMAIL", DEFAULTS.email);
  if (!isDeliverableEmail(email)) broken("STUDIO_EMAIL", `is not an e-mail address: "${email}"`);
  else if (env.STUDIO_EMAIL && isExampleAddress(email)) notForProduction("STUDIO_EMAIL", `is at a documentation domain (${email})`);

  const anonKey = text("SUPABASE_ANON_KEY", DEFAULTS.anonKey);
  if (/service_role|sb_secret_/.test(anonKey) || jwtRole(anonKey) === "service_role") {
    broken("SUPABASE_ANON_KEY", "holds a secret key; use the project's public anon or publishable key");
  }

  const relaySecret = readSecret(env.ENQUIRY_RELAY_SECRET);
  notForProduction(
    "ENQUIRY_RELAY_SECRET",
    secretProblem(relaySecret) &&
      `${secretProblem(relaySecret)}: set the same long random value here and as the function's secret (README, Deployment)`,
  );

  const port = env.PORT?.trim();
  if (port && (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535))
    broken("PORT", `must be a port number from 1 to 65535, got "${port}"`);

  const trustSetting = env.TRUST_PROXY?.trim() || "false";
  let isTrusted: SiteConfig["trustProxy"]["isTrusted"] = () => false;
  try {
    if (trustSetting === "true")
      throw new Error("true would trust any hop, so a visitor who reaches the site directly picks their own address");
    isTrusted = compileTrust(trustSetting);
  } catch (error) {
    broken(
      "TRUST_PROXY",
      `${error instanceof Error ? error.message : error}: use false, a number of proxy hops, or addresses/CIDRs (README)`,
    );
  }

  const config: SiteConfig = {
    production,
    liveReload: env.NODE_ENV === "development",
    relaySecret,
    studio: {
      name: env.STUDIO_NAME?.trim() || DEFAULTS.name,
      email,
      address: {
        street: text("STUDIO_STREET", DEFAULTS.street),
        locality: "Etobicoke",
        region: "Ontario",
        postalCode: text("STUDIO_POSTAL_CODE", DEFAULTS.postalCode),
        country: "CA",
      },
      socialUrl: url("STUDIO_SOCIAL_URL", DEFAULTS.socialUrl),
      socialLabel: env.STUDIO_SOCIAL_LABEL?.trim() || DEFAULTS.socialLabel,
      siteUrl: url("SITE_URL", DEFAULTS.siteUrl, { hostOnly: true }),
    },
    publicEnv: { supabaseUrl: url("SUPABASE_URL", DEFAULTS.supabaseUrl, { hostOnly: true }), supabaseAnonKey: anonKey },
    server: {
      headersTimeoutMs: milliseconds("SERVER_HEADERS_TIMEOUT_MS", 10_000, [1_000, 120_000]),
      requestTimeoutMs: milliseconds("SERVER_REQUEST_TIMEOUT_MS", 30_000, [1_000, 600_000]),
      keepAliveTimeoutMs: milliseconds("SERVER_KEEP_ALIVE_TIMEOUT_MS", 5_000, [1_000, 600_000]),
      formBodyTimeoutMs: FORM_READ_TIMEOUT_MS,
    },
    trustProxy: { setting: trustSetting, isTrusted },
  };
  config.server.formBodyTimeoutMs = Math.max(
    500,
    Math.min(FORM_READ_TIMEOUT_MS, config.server.requestTimeoutMs - config.server.headersTimeoutMs),
  );
  if (config.server.requestTimeoutMs < config.server.headersTimeoutMs) {
    broken("SERVER_REQUEST_TIMEOUT_MS", "must not be shorter than SERVER_HEADERS_TIMEOUT_MS");
  }
  // A setting under a name the site does not read is lost without a word: refused in production.
  (strict ? fatal : warnings).push(...misspelledVariables(Object.keys(source), read));
  return { config, fatal, warnings };
}

/**
 * TRUST_PROXY, as Express's "trust proxy" reads it: "false" (the default: the socket's address is
 * the visitor's), a number of proxy hops in front of the site, or addresses, CIDR ranges and the
 * names loopback, linklocal and uniquelocal, comma-separated.
 */
function compileTrust(setting: string): SiteConfig["trustProxy"]["isTrusted"] {
  if (setting === "false" || setting === "0") return () => false;
  if (/^\d+$/.test(setting)) {
    const hops = Number(setting);
    return (_address, hop) => hop < hops;
  }
  return proxyAddr.compile(setting.split(",").map((part) => part.trim()));
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

/** One line per problem, naming the variable. */
export function describeProblems(problems: readonly ConfigProblem[]): string {
  return problems.map(({ variable, problem }) => `  - ${variable} ${problem}`).join("\n");
}

let cached: SiteConfig | undefined;
let cachedWarnings: ConfigProblem[] = [];

/**
 * Reads and checks the configuration when the server starts. Fatal problems end the process with
 * status 1 before it listens, one line each; warnings are printed and the server goes on.
 */
export function startupConfig(env: Env = process.env): SiteConfig {
  if (cached) return cached;
  const { config, fatal, warnings } = readConfig(env);
  if (fatal.length > 0) {
    console.error(`The site's configuration cannot work; fix these and start it again:\n${describeProblems(fatal)}`);
    process.exit(1);
  }
  if (warnings.length > 0) {
    console.warn(`The site runs with local values (LOCAL_STACK=1); in a deployment these would be refused:\n${describeProblems(warnings)}`);
  }
  cached = config;
  cachedWarnings = warnings;
  return config;
}

/** The variables that hold local values (LOCAL_STACK=1 only), for /healthz. */
export function localValues(): string[] {
  return cachedWarnings.map((w) => w.variable);
}

/** The configuration read at start (for routes and the document pipeline). */
export function config(): SiteConfig {
  return cached ?? startupConfig();
}
