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

/** Names longer than this are no one's misspelling of a setting (and are not compared). */
const MAX_NAME_LENGTH = 64;

/**
 * Variables in the environment that look like a misspelling of one the service reads ("TRUSTPROXY",
 * "STUDIO_INBOXX", "Trust_Proxy"): their values would be ignored without a word. `read` is every name
 * the service looked up while reading its configuration, so the list of settings cannot drift from
 * the code. A name matches when it is the same once case and separators are dropped, when it adds or
 * drops a last word (a unit: `_MS`), or when it is one edit away (two for names of 12 characters or more).
 */
export function misspelledVariables(present: Iterable<string>, read: ReadonlySet<string>): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const name of present) {
    if (read.has(name) || name.length > MAX_NAME_LENGTH) continue;
    const meant = [...read].find((known) => looksLike(name, known));
    if (meant) problems.push({ variable: name, problem: `is not a setting: did you mean ${meant}? (its value is ignored)` });
  }
  return problems;
}

function looksLike(name: string, known: string): boolean {
  const squash = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (squash(name) === squash(known)) return true;
  if (known.length < 6) return false;
  // A unit or a word too few or too many at the end: SERVER_REQUEST_TIMEOUT, TRUST_PROXY_HOPS.
  const upper = name.toUpperCase();
  const [shorter, longer] = upper.length < known.length ? [upper, known] : [known, upper];
  if (shorter.length >= 8 && longer.startsWith(`${shorter}_`) && longer.length - shorter.length <= 8) return true;
  if (sameWords(upper, known)) return true;
  return editDistance(name.toUpperCase(), known, 2) <= (known.length >= 12 ? 2 : 1);
}

/**
 * The same words but for an ending or an abbreviation: TRUSTED_PROXIES for TRUST_PROXY, SMTP_PASSWORD
 * for SMTP_PASS. Word by word, equal once -ED, -S, -ES and -IES/-Y are taken off, or one a prefix of the
 * other (four letters at least).
 */
function sameWords(name: string, known: string): boolean {
  const stem = (word: string) => word.replace(/IES$/, "Y").replace(/(ED|ES|S)$/, "");
  const a = name.split(/[^A-Z0-9]+/).filter(Boolean);
  const b = known.split(/[^A-Z0-9]+/).filter(Boolean);
  if (a.length !== b.length || a.length < 2) return false;
  return a.every((word, i) => {
    const other = b[i]!;
    if (stem(word) === stem(other)) return true;
    const [short, long] = word.length < other.length ? [word, other] : [other, word];
    return short.length >= 4 && long.startsWith(short);
  });
}

/** Edits (insert, delete, replace, swap of neighbours) from `a` to `b`; stops counting past `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
