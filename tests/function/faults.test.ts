// A fault that escapes the handler (Deno.serve's onError, as index.ts wires it): answered with the usual
// headers, logged in one line without a stack, at error level once per kind and interval.
import assert from "node:assert/strict";
import { createFaultAnswer } from "../../supabase/functions/send-contact-email/handler.ts";
import type { LogLine } from "../../supabase/functions/send-contact-email/log.ts";
import { NOISE_INTERVAL_MS } from "../../supabase/functions/send-contact-email/noise.ts";
import { setup, test } from "./support.ts";

test("a fault that escapes the handler is a 500 with CORS and Cache-Control, one line without a stack, at error level once per kind and interval, the repeats counted", async () => {
  await using fn = setup();
  const lines: LogLine[] = [];
  let clock = 0;
  const onError = createFaultAnswer({ config: fn.config, log: (line) => lines.push(line), now: () => clock });
  await using server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {}, onError }, () => {
    throw new TypeError("a fault of ours");
  });
  const statuses = [];
  for (let i = 0; i < 5; i++) {
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/functions/v1/send-contact-email`);
    assert.equal(response.headers.get("cache-control"), "no-store");
    assert.ok(response.headers.get("access-control-allow-methods"));
    assert.doesNotMatch(await response.text(), /TypeError|fault of ours/);
    statuses.push(response.status);
  }
  assert.deepEqual(statuses, [500, 500, 500, 500, 500]);
  assert.deepEqual(
    lines.map((l) => l.level),
    ["error", "info", "info", "info", "info"],
  );
  assert.equal(lines[0]!.error, "TypeError: a fault of ours");
  assert.ok(
    lines.every((l) => !/\n\s+at /.test(JSON.stringify(l))),
    "no stack",
  );
  // The next interval: the owner's alarm again, once, with what was left out.
  clock += NOISE_INTERVAL_MS;
  await (await fetch(`http://127.0.0.1:${server.addr.port}/`)).text();
  assert.deepEqual([lines.at(-1)!.level, lines.at(-1)!.moreSincePrevious], ["error", 4]);
});
