/**
 * The shapes a configuration value can have, as valibot schemas, for the site (app/config.server.ts)
 * and the function (send-contact-email/config.ts): each reads a variable through one of these and
 * names the variable with the schema's message when the value does not fit. The rules only a
 * deployment needs are in config-checks.ts. valibot comes from npm in both runtimes (decision 001).
 */
import * as v from "valibot";

/** A whole number from `min` to `max` (digits only: "30s", "-1" and "1e3" are refused). */
export const wholeNumber = (what: string, [min, max]: readonly [number, number]) =>
  v.pipe(
    v.string(),
    v.check(
      (raw) => /^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max,
      (issue) => `must be ${what} from ${min} to ${max}, got "${issue.input}"`,
    ),
    v.transform(Number),
  );

/** An http(s) URL, without a trailing slash. */
export const httpUrl = v.pipe(
  v.string(),
  v.transform((value) => value.replace(/\/+$/, "")),
  v.check(
    (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
    (issue) => `must be an http(s) URL, got "${issue.input}"`,
  ),
);

/** A URL that names a whole host (scheme, host, port): a path, query or fragment would end up in every link built on it. */
export const hostUrl = v.pipe(
  httpUrl,
  v.check(
    (value) => {
      const url = new URL(value);
      return url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
    },
    (issue) => `must be a scheme and host only (https://host), without a path, query or fragment, got "${issue.input}"`,
  ),
);

/**
 * `raw` read with `schema`: its output, or the schema's first message (the first thing wrong is
 * enough: a URL that cannot be parsed has no host to check).
 */
export function readShape<T>(schema: v.GenericSchema<string, T>, raw: string): { value: T } | { problem: string } {
  const result = v.safeParse(schema, raw, { abortPipeEarly: true });
  return result.success ? { value: result.output } : { problem: result.issues[0].message };
}
