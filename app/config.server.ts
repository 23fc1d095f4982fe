/**
 * The site's whole configuration, read from the environment and checked once, when the server starts
 * (entry.server calls `startupConfig()` before remix-serve listens). Every variable is listed with its
 * meaning in README.md and .env.example; the checks are in docs/decisions/014.
 *
 * - A value that cannot work anywhere (a malformed URL or address, a number out of range, a secret key
 *   where the public one belongs) is refused in every mode: the shapes are one valibot schema per
 *   variable (`SETTINGS`), which is also the list of names the site reads.
 * - In production (NODE_ENV=production) a missing value, a placeholder from .env.example, a secret
 *   shorter than 32 characters, or a local or example URL or address is refused too: the server prints
 *   one line per problem and exits with status 1. LOCAL_STACK=1 turns these into warnings for a local
 *   run of the production build (npm run stack, the tests, the container test).
 */
import proxyAddr from "proxy-addr";
import * as v from "valibot";
import {
  type ConfigProblem,
  isExampleAddress,
  isPlaceholder,
  misspelledVariables,
  publicUrlProblem,
  readSecret,
  secretProblem,
} from "#shared/config-checks.ts";
import { hostUrl, httpUrl, readShape, wholeNumber } from "#shared/config-shapes.ts";
import { isDeliverableEmail } from "#shared/contact-message.ts";
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
  /** The origins whose posts are the site's own: SITE_URL's, then SITE_ORIGINS (app/server/front-door.server.ts). */
  siteOrigins: ReadonlySet<string>;
  /** HEALTHZ_SECRET: who sends it (Authorization: Bearer …) reads /healthz's details; unset, nobody does. */
  healthzSecret?: string;
  /** CSP_REPORT_URL: where browsers send reports of what the page's CSP blocked; unset, nowhere. */
  cspReportUrl?: string;
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

/** A value as both services read one: surrounding white space dropped, and empty is unset. */
const given = (value: string | undefined) => value?.trim() || undefined;

const milliseconds = (range: [number, number]) => wholeNumber("a whole number of milliseconds", range);

/**
 * Every variable the site reads, with its shape: a value of the wrong shape cannot work anywhere, so
 * it is refused in every mode (and its default used meanwhile). The rules only a deployment needs
 * (required, no placeholder, public URLs, long secrets) are in `readConfig`. These names, NODE_ENV and
 * LOCAL_STACK are all the site reads: anything else that looks like one of them is a misspelling.
 */
const SETTINGS = {
  SITE_URL: hostUrl,
  SUPABASE_URL: hostUrl,
  SUPABASE_ANON_KEY: v.pipe(
    v.string(),
    v.check(
      (key) => !/service_role|sb_secret_/.test(key) && jwtRole(key) !== "service_role",
      "holds a secret key; use the project's public anon or publishable key",
    ),
  ),
  STUDIO_EMAIL: v.pipe(
    v.string(),
    v.check(isDeliverableEmail, (issue) => `is not an e-mail address: "${issue.input}"`),
  ),
  STUDIO_NAME: v.string(),
  STUDIO_STREET: v.string(),
  STUDIO_POSTAL_CODE: v.string(),
  STUDIO_SOCIAL_URL: httpUrl,
  STUDIO_SOCIAL_LABEL: v.string(),
  ENQUIRY_RELAY_SECRET: v.string(),
  SITE_ORIGINS: v.pipe(
    v.string(),
    v.transform((list) =>
      list
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    ),
    v.check(
      (origins) => origins.every((origin) => v.is(hostUrl, origin)),
      (issue) => `must be origins (scheme://host[:port], no path), comma-separated, got "${issue.input.join(",")}"`,
    ),
    v.transform((origins) => origins.map((origin) => new URL(origin).origin)),
  ),
  HEALTHZ_SECRET: v.string(),
  CSP_REPORT_URL: httpUrl,
  PORT: wholeNumber("a port number", [1, 65535]),
  TRUST_PROXY: v.pipe(
    v.string(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      try {
        return { setting: dataset.value, isTrusted: compileTrust(dataset.value) };
      } catch (error) {
        addIssue({
          message: `${error instanceof Error ? error.message : error}: use false, a number of proxy hops, or addresses/CIDRs (README)`,
        });
        return NEVER;
      }
    }),
  ),
  SERVER_HEADERS_TIMEOUT_MS: milliseconds([1_000, 120_000]),
  SERVER_REQUEST_TIMEOUT_MS: milliseconds([1_000, 600_000]),
  SERVER_KEEP_ALIVE_TIMEOUT_MS: milliseconds([1_000, 600_000]),
} satisfies Record<string, v.GenericSchema<string, unknown>>;

type Settings = { [K in keyof typeof SETTINGS]?: v.InferOutput<(typeof SETTINGS)[K]> };

/** Reads the configuration; never throws. `fatal` problems stop the server; `warnings` are printed. */
export function readConfig(env: Env = process.env): { config: SiteConfig; fatal: ConfigProblem[]; warnings: ConfigProblem[] } {
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

  const values: Settings = {};
  for (const [variable, schema] of Object.entries(SETTINGS)) {
    const value = given(env[variable]);
    if (value === undefined) continue;
    const read = readShape<unknown>(schema, value);
    if ("value" in read) Object.assign(values, { [variable]: read.value });
    else broken(variable, read.problem);
  }

  // What only a deployment needs.
  for (const variable of ["STUDIO_EMAIL", "SUPABASE_ANON_KEY", "STUDIO_STREET", "STUDIO_POSTAL_CODE"]) {
    const value = given(env[variable]);
    if (!value) notForProduction(variable, "is required");
    else if (isPlaceholder(value)) notForProduction(variable, "is the placeholder from .env.example");
  }
  for (const variable of ["SITE_URL", "SUPABASE_URL", "STUDIO_SOCIAL_URL"] as const)
    if (values[variable] !== undefined || !given(env[variable])) notForProduction(variable, publicUrlProblem(values[variable]));
  if (values.STUDIO_EMAIL && isExampleAddress(values.STUDIO_EMAIL))
    notForProduction("STUDIO_EMAIL", `is at a documentation domain (${values.STUDIO_EMAIL})`);
  const relaySecret = readSecret(env.ENQUIRY_RELAY_SECRET);
  notForProduction(
    "ENQUIRY_RELAY_SECRET",
    secretProblem(relaySecret) &&
      `${secretProblem(relaySecret)}: set the same long random value here and as the function's secret (README, Deployment)`,
  );

  const healthzSecret = readSecret(env.HEALTHZ_SECRET);
  if (healthzSecret !== undefined) notForProduction("HEALTHZ_SECRET", secretProblem(healthzSecret));
  if (values.CSP_REPORT_URL !== undefined) notForProduction("CSP_REPORT_URL", publicUrlProblem(values.CSP_REPORT_URL));
  for (const origin of values.SITE_ORIGINS ?? [])
    notForProduction("SITE_ORIGINS", publicUrlProblem(origin) && `${origin} ${publicUrlProblem(origin)}`);

  const siteUrl = values.SITE_URL ?? DEFAULTS.siteUrl;
  const config: SiteConfig = {
    production,
    siteOrigins: new Set([new URL(siteUrl).origin, ...(values.SITE_ORIGINS ?? [])]),
    healthzSecret,
    cspReportUrl: values.CSP_REPORT_URL,
    liveReload: env.NODE_ENV === "development",
    relaySecret,
    studio: {
      name: values.STUDIO_NAME ?? DEFAULTS.name,
      email: values.STUDIO_EMAIL ?? DEFAULTS.email,
      address: {
        street: values.STUDIO_STREET ?? DEFAULTS.street,
        locality: "Etobicoke",
        region: "Ontario",
        postalCode: values.STUDIO_POSTAL_CODE ?? DEFAULTS.postalCode,
        country: "CA",
      },
      socialUrl: values.STUDIO_SOCIAL_URL ?? DEFAULTS.socialUrl,
      socialLabel: values.STUDIO_SOCIAL_LABEL ?? DEFAULTS.socialLabel,
      siteUrl,
    },
    publicEnv: { supabaseUrl: values.SUPABASE_URL ?? DEFAULTS.supabaseUrl, supabaseAnonKey: values.SUPABASE_ANON_KEY ?? DEFAULTS.anonKey },
    server: {
      headersTimeoutMs: values.SERVER_HEADERS_TIMEOUT_MS ?? 10_000,
      requestTimeoutMs: values.SERVER_REQUEST_TIMEOUT_MS ?? 30_000,
      keepAliveTimeoutMs: values.SERVER_KEEP_ALIVE_TIMEOUT_MS ?? 5_000,
      formBodyTimeoutMs: FORM_READ_TIMEOUT_MS,
    },
    // Unset, or refused above: no proxy is trusted.
    trustProxy: values.TRUST_PROXY ?? { setting: given(env.TRUST_PROXY) ?? "false", isTrusted: () => false },
  };
  config.server.formBodyTimeoutMs = Math.max(
    500,
    Math.min(FORM_READ_TIMEOUT_MS, config.server.requestTimeoutMs - config.server.headersTimeoutMs),
  );
  if (config.server.requestTimeoutMs < config.server.headersTimeoutMs) {
    broken("SERVER_REQUEST_TIMEOUT_MS", "must not be shorter than SERVER_HEADERS_TIMEOUT_MS");
  }
  // A setting under a name the site does not read is lost without a word: refused in production.
  const read = new Set([...Object.keys(SETTINGS), "NODE_ENV", "LOCAL_STACK"]);
  (strict ? fatal : warnings).push(...misspelledVariables(Object.keys(env), read));
  return { config, fatal, warnings };
}

/**
 * TRUST_PROXY, as Express's "trust proxy" reads it: "false" (the default: the socket's address is
 * the visitor's), a number of proxy hops in front of the site, or addresses, CIDR ranges and the
 * names loopback, linklocal and uniquelocal, comma-separated.
 */
function compileTrust(setting: string): SiteConfig["trustProxy"]["isTrusted"] {
  if (setting === "true") throw new Error("true would trust any hop, so a visitor who reaches the site directly picks their own address");
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
