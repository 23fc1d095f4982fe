import { describe, expect, it, vi } from "vitest";
import { ACCESS_LINES, createRequestLog, INTERVAL_MS, MAX_KINDS } from "./request-log.server";

function logOnAClock() {
  let clock = 0;
  const lines: Array<[string, string]> = [];
  const sink = {
    info: (line: string) => lines.push(["info", line]),
    warn: (line: string) => lines.push(["warn", line]),
    error: (line: string) => lines.push(["error", line]),
  };
  const log = createRequestLog({ sink, now: () => clock });
  return { log, lines, tick: (ms: number) => (clock += ms) };
}

const routeError = (route: string) => new Error(`Route "${route}" does not match URL "/"`);

describe("the request log", () => {
  it("writes one line without a stack for the first refusal of a kind, counts the rest, and says the count when the interval ends", () => {
    vi.useFakeTimers();
    try {
      const { log, lines, tick } = logOnAClock();
      for (let i = 0; i < 1000; i++)
        log.failed({ method: "GET", target: `/?_data=routes/nope${i}`, status: 403, ms: 1, cause: routeError(`routes/nope${i}`) });
      expect(lines).toEqual([
        ["warn", expect.stringMatching(/^refused: GET \/\?_data=routes\/nope0 403 .*\(Route \\"routes\/nope0\\" does not match URL/)],
      ]);
      tick(INTERVAL_MS);
      vi.advanceTimersByTime(INTERVAL_MS);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toEqual(["warn", "refused: 403 GET (Route … does not match URL …): 999 more in the last 10 s"]);
      expect(lines.join("\n")).not.toMatch(/\n\s+at /);
    } finally {
      vi.useRealTimers();
    }
  });

  it("bounds the lines of an interval whatever arrives: access lines, kinds, and one count for the rest", () => {
    const { log, lines } = logOnAClock();
    let written = 0;
    for (let i = 0; i < 10_000; i++) if (log.access(`GET /${i} 200 - - 1 ms`)) written++;
    for (let i = 0; i < 10_000; i++) log.failed({ method: "GET", target: "/", status: 400 + (i % 100), ms: 1 });
    expect(written).toBe(ACCESS_LINES);
    expect(lines.length).toBeLessThanOrEqual(MAX_KINDS);
  });

  it("writes a fault of ours (5xx) at error level, once per kind and interval", () => {
    const { log, lines } = logOnAClock();
    for (let i = 0; i < 50; i++) log.failed({ method: "POST", target: "/", status: 500, ms: 1, cause: new TypeError("x is undefined") });
    expect(lines).toEqual([["error", expect.stringMatching(/^fault: POST \/ 500 .*TypeError: x is undefined/)]]);
  });

  it("keeps what a client wrote from starting a line of its own, and from making a line long", () => {
    const { log, lines } = logOnAClock();
    log.failed({ method: "GET", target: `/a\nrefused: forged${"x".repeat(5000)}`, status: 404, ms: 1 });
    expect(lines[0]![1]).not.toContain("\n");
    expect(lines[0]![1].length).toBeLessThan(400);
  });
});
