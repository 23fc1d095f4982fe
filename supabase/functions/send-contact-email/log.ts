/** One structured JSON line per event, with a level the platform's log explorer can filter on. */
export type LogLine = Record<string, unknown> & { level?: "info" | "warn" | "error" };
export type Log = (line: LogLine) => void;

export const FUNCTION_NAME = "send-contact-email";

export function defaultLog(line: LogLine) {
  const text = JSON.stringify({ time: new Date().toISOString(), fn: FUNCTION_NAME, level: "info", ...line });
  if (line.level === "error") console.error(text);
  else if (line.level === "warn") console.warn(text);
  else console.log(text);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
