// GET / under odd paths (decision 017): the p95 of GET / alone, and while 300 distinct odd spellings of
// paths arrive. Each odd spelling is redirected by the site's front door, never rendered or kept:
// target at most 2× the idle p95, no 5xx, one document in memory. Used by `npm run bench`; alone:
//   node scripts/measure/odd-paths.mjs
import http from "node:http";
import { LOCAL_SECRETS } from "../local-stack/environment.mjs";
import { startStack } from "../local-stack/stack.mjs";

/**
 * GET / latency (p95 of every request) from 4 loops for 5 s, alone, then while 300 distinct odd
 * spellings of paths ("//", "/./x", "/a/../") arrive spread over the same 5 s (decision 017).
 */
export async function oddPaths(url) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const { hostname, port } = new URL(url);
  // The path exactly as written: a URL parser would resolve "/./" before it is sent.
  const get = (path) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      http
        .get({ host: hostname, port, path, agent, headers: { "accept-encoding": "gzip" } }, (response) => {
          response.resume();
          response.on("end", () => resolve({ ms: performance.now() - started, status: response.statusCode }));
        })
        .on("error", reject);
    });
  const homeFor = async (ms) => {
    const latencies = [];
    const until = performance.now() + ms;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (performance.now() < until) latencies.push((await get("/")).ms);
      }),
    );
    latencies.sort((a, b) => a - b);
    const at = (p) => +latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
    return { requests: latencies.length, p50Ms: at(0.5), p95Ms: at(0.95) };
  };
  await homeFor(2000); // warm-up
  const idle = await homeFor(5000);
  const paths = Array.from(
    { length: 300 },
    (_, i) => ["/".repeat(2 + i), `/.${"/.".repeat(i)}/`, `/x${i}/..//`, `/${"/".repeat(i)}?p=${i}`][i % 4],
  );
  const statuses = {};
  const odd = (async () => {
    const started = performance.now();
    for (const [i, path] of paths.entries()) {
      const { status } = await get(path);
      statuses[status] = (statuses[status] ?? 0) + 1;
      const due = started + ((i + 1) * 4500) / paths.length;
      if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
    }
  })();
  const during = await homeFor(5000);
  await odd;
  agent.destroy();
  // The count is in /healthz's details: the local stack's HEALTHZ_SECRET reads them.
  const owner = { authorization: `Bearer ${LOCAL_SECRETS.healthz}` };
  const documents = (await (await fetch(`${url}/healthz`, { headers: owner })).json()).documentsInMemory;
  return { idle, during, oddStatuses: statuses, documentsInMemory: documents };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const stack = await startStack({ db: false, mail: false, fn: false });
  try {
    console.log(JSON.stringify(await oddPaths(stack.siteUrl), null, 2));
  } finally {
    await stack.stop();
  }
}
