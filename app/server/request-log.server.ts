/**
 * What the site writes about the requests it answers, bounded whatever clients send (docs/decisions/032).
 * Within each interval (INTERVAL_MS):
 * - an answer that went well gets its access line (remix-serve's, remix-serve-log.server.ts) while the
 *   interval's budget lasts, then it is counted;
 * - a refusal (4xx) gets one line, without a stack, for the first of its kind (status, method and cause,
 *   with what the client wrote in the cause left out); the others of that kind are counted;
 * - a fault of ours (5xx) gets its error, with its stack, once per kind in the same way: the owner's
 *   alarm, rung once per kind and interval however often a client repeats the request;
 * - when the interval ends, one line per kind that was counted says how many more there were.
 * Kinds per interval are bounded too (MAX_KINDS; the rest share one count), so the lines an interval
 * can hold are bounded, whatever arrives.
 */

import { format } from "node:util";

/** How long a count runs before its line. */
export const INTERVAL_MS = 10_000;
/** Access lines of answers that went well, per interval. */
export const ACCESS_LINES = 50;
/** Kinds of refusal or fault with a line of their own, per interval. */
export const MAX_KINDS = 20;
/** How much of a request's target a line shows. */
const MAX_TARGET = 200;

export type Sink = { info(line: string): void; warn(line: string): void; error(line: string, cause?: unknown): void };
export type Failed = { method: string; target: string; status: number; ms: number; cause?: unknown };

type Level = "log" | "info" | "warn" | "error";
/** The console as it was before boundConsole: the log's own lines never come back into it. */
const original: Record<Level, (...args: unknown[]) => void> = {
  log: console.log.bind(console),
  info: console.info.bind(console),
  warn: console.warn.bind(console),
  error: console.error.bind(console),
};
const consoleSink: Sink = {
  info: (line) => original.log(line),
  warn: (line) => original.warn(line),
  error: (line, cause) => (cause === undefined ? original.error(line) : original.error(line, cause)),
};

export function createRequestLog({ sink = consoleSink, now = Date.now }: { sink?: Sink; now?: () => number } = {}) {
  let started = now();
  let accessLines = 0;
  let accessCounted = 0;
  /** Kinds seen this interval: how many more came after the first. */
  const kinds = new Map<string, { more: number; level: "warn" | "error" }>();
  let otherKinds = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const endInterval = () => {
    timer = undefined;
    if (accessCounted) sink.info(`${accessCounted} more answers not logged in the last ${INTERVAL_MS / 1000} s`);
    for (const [kind, { more, level }] of kinds) {
      if (more) sink[level](`${kind}: ${more} more in the last ${INTERVAL_MS / 1000} s`);
    }
    if (otherKinds) sink.warn(`${otherKinds} refusals or faults of other kinds in the last ${INTERVAL_MS / 1000} s`);
    accessLines = accessCounted = otherKinds = 0;
    kinds.clear();
    started = now();
  };
  /** Counts are told when the interval ends; the timer does not keep the process alive. */
  const tellLater = () => {
    if (timer) return;
    timer = setTimeout(endInterval, Math.max(0, started + INTERVAL_MS - now()));
    timer.unref?.();
  };
  const rollOver = () => {
    // An interval begins with the first thing after a quiet one.
    if (!accessLines && !kinds.size) started = now();
    else if (now() - started >= INTERVAL_MS) {
      if (timer) clearTimeout(timer);
      endInterval();
    }
  };

  /** `write` for the first of `kind` in the interval; a count for the others. */
  const once = (kind: string, level: "warn" | "error", write: () => void) => {
    rollOver();
    const seen = kinds.get(kind);
    if (seen) {
      seen.more++;
      tellLater();
    } else if (kinds.size >= MAX_KINDS) {
      otherKinds++;
      tellLater();
    } else {
      kinds.set(kind, { more: 0, level });
      write();
    }
  };

  return {
    /** An access line of an answer that went well: the line while the budget lasts, else undefined (counted). */
    access(line: string): string | undefined {
      rollOver();
      if (accessLines < ACCESS_LINES) {
        accessLines++;
        return line;
      }
      accessCounted++;
      tellLater();
      return undefined;
    },
    /** An answer of 400 or more: its line for the first of its kind in the interval, else a count. */
    failed({ method, target, status, ms, cause }: Failed): void {
      const level = status >= 500 ? "error" : "warn";
      const label = level === "error" ? "fault" : "refused";
      const kind = `${label}: ${status} ${method}${cause === undefined ? "" : ` (${causeKind(cause)})`}`;
      const line = `${label}: ${method} ${shown(target)} ${status} - ${ms.toFixed(3)} ms${cause === undefined ? "" : ` (${firstLine(cause)})`}`;
      once(kind, level, () => (level === "error" ? sink.error(line, cause) : sink.warn(line)));
    },
    /**
     * What the site's own code writes while answering a request (the 404 route's line, the enquiry's
     * error when the function is down): the first of its kind in the interval as it was written, the
     * others counted.
     */
    wrote(level: Level, args: unknown[], write: (...args: unknown[]) => void = original[level]): void {
      once(causeKind(format(...args)), level === "error" ? "error" : "warn", () => write(...args));
    },
  };
}

/**
 * Makes what the console is given while `answering()` go through `log.wrote`: a request can make the
 * site's code write, but not without bound.
 */
export function boundConsole(log: ReturnType<typeof createRequestLog>, answering: () => boolean): void {
  for (const level of ["log", "info", "warn", "error"] as const) {
    console[level] = (...args: unknown[]) => (answering() ? log.wrote(level, args) : original[level](...args));
  }
}

/** The target as a line may show it: bounded, with nothing that could start a line of its own. */
function shown(target: string): string {
  const escaped = JSON.stringify(target).slice(1, -1);
  return escaped.length > MAX_TARGET ? `${escaped.slice(0, MAX_TARGET)}…` : escaped;
}

/** The first line of an error's message (a route error response's own error where it has one). */
function firstLine(cause: unknown): string {
  const error = (cause as { error?: unknown })?.error ?? cause;
  const text = error instanceof Error ? `${error.name === "Error" ? "" : `${error.name}: `}${error.message}` : String(error);
  return shown(text.split("\n")[0] ?? "");
}

/** The cause with what a client chose left out: quoted text, and numbers. */
function causeKind(cause: unknown): string {
  return firstLine(cause)
    .replace(/\\?"[^"]*\\?"|'[^']*'|`[^`]*`/g, "…")
    .replace(/\d+/g, "N");
}
