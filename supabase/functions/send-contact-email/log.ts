/**
 * One structured JSON line per event, with a level the platform's log explorer can filter on. Logs
 * never carry a visitor's name or address: the code logs enquiry ids, never message fields, and
 * every text that may echo one (a provider's error, which often names the recipient) passes through
 * `maskAddresses` first, here and before it is stored.
 */
import { FUNCTION_NAME } from "../_shared/contact-message.ts";

export type LogLine = Record<string, unknown> & { level?: "info" | "warn" | "error" };
export type Log = (line: LogLine) => void;

const ADDRESS = /[^\s<>()[\]"',;:@]+@[^\s<>()[\]"',;:@]+/g;

/** Replaces anything shaped like an e-mail address with "<address>". */
export function maskAddresses(text: string): string {
  return text.replace(ADDRESS, "<address>");
}

export function defaultLog(line: LogLine) {
  const masked = Object.fromEntries(
    Object.entries(line).map(([key, value]) => [key, typeof value === "string" ? maskAddresses(value) : value]),
  );
  const text = JSON.stringify({ time: new Date().toISOString(), fn: FUNCTION_NAME, level: "info", ...masked });
  if (line.level === "error") console.error(text);
  else if (line.level === "warn") console.warn(text);
  else console.log(text);
}

/** An error as one line of text, with addresses masked (it may be logged and stored). */
export function errorText(error: unknown): string {
  return maskAddresses(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}
