/**
 * What a production configuration may not hold, checked the same way by the site (Node) and the
 * function (Deno): placeholders copied from .env.example, short secrets, and addresses that only make
 * sense on a developer's machine or in documentation. Dependency-free; see docs/decisions/014.
 */

/** A configuration problem: the variable, and what is wrong with it and what to do. */
export type ConfigProblem = { variable: string; problem: string };

/** Secrets (relay, redelivery, salt) must be at least this long: 32 random characters are not guessed. */
export const MIN_SECRET_LENGTH = 32;

/** How the placeholders in .env.example and supabase/functions/.env.example are written. */
const PLACEHOLDER = /change-me|your-project-ref|yourstudio|x{8,}|example street/i;

/** Whether `value` is one of the placeholders of the .env.example files, not a real value. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/**
 * Hosts that no deployment serves from or sends mail to: this machine (localhost, loopback, the
 * unspecified address) and the names reserved for documentation and tests (RFC 2606, RFC 6761):
 * example.com/.net/.org and anything under .example, .test, .invalid or .localhost.
 */
export function isLocalOrExampleHost(host: string): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  if (name === "localhost" || name === "::1" || name === "0.0.0.0" || /^127\.\d+\.\d+\.\d+$/.test(name)) return true;
  if (/(^|\.)(example|test|invalid|localhost)$/.test(name)) return true;
  return /(^|\.)example\.(com|net|org)$/.test(name);
}

/** Whether a URL (or origin) points at this machine or at a documentation domain. */
export function isLocalOrExampleUrl(url: string): boolean {
  try {
    return isLocalOrExampleHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Whether an e-mail address (or "Name <address>") is at a documentation domain or this machine. */
export function isExampleAddress(address: string): boolean {
  const bare = /<([^>]*)>\s*$/.exec(address)?.[1] ?? address;
  const domain = bare.slice(bare.lastIndexOf("@") + 1).trim();
  return domain === "" || isLocalOrExampleHost(domain);
}

/** The problem with a production secret, if any. */
export function secretProblem(value: string | undefined): string | undefined {
  if (!value) return "is required";
  if (isPlaceholder(value)) return "is the placeholder from .env.example";
  if (value.length < MIN_SECRET_LENGTH) return `is ${value.length} characters long; use at least ${MIN_SECRET_LENGTH} random characters`;
  return undefined;
}

/** The problem with a production URL (or origin), if any: not https, a placeholder, local or an example. */
export function publicUrlProblem(value: string | undefined): string | undefined {
  if (!value) return "is required";
  if (isPlaceholder(value)) return "is the placeholder from .env.example";
  if (isLocalOrExampleUrl(value)) return `points at this machine or a documentation domain (${value})`;
  if (!value.startsWith("https://")) return `must be an https:// URL (${value})`;
  return undefined;
}

/** A secret as both services read it: surrounding white space (a stray newline from a paste) is not part of it. */
export function readSecret(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
