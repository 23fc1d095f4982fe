// Liveness for the container HEALTHCHECK, load balancers and `npm run verify`: the server answers, its
// configuration passed the checks at start (it would not be running otherwise), what the function
// last said (app/server/function-check.server.ts), how many documents are kept in memory (one per
// cacheable route, whatever requests arrive), and whether a proxy in front is one TRUST_PROXY names.
import { createHash } from "node:crypto";
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { config, localValues } from "~/config.server";
import { documentsInMemory } from "~/document/render.server";
import { CLIENT_ADDRESS_HEADER, FORWARDED_VIA_HEADER } from "~/server/front-door.server";
import { functionCheck } from "~/server/function-check.server";

export function loader({ request }: LoaderFunctionArgs) {
  const { publicEnv, relaySecret, production } = config();
  return json(
    {
      status: "ok",
      configuration: { valid: true, production, localValues: localValues() },
      function: functionCheck({ supabaseUrl: publicEnv.supabaseUrl, relaySecret }),
      documentsInMemory: documentsInMemory(),
      // How this very request arrived: "untrusted-proxy" means TRUST_PROXY misses the proxy in front.
      forwardedVia: request.headers.get(FORWARDED_VIA_HEADER) ?? "direct",
      // Who the site takes the caller to be, as a short hash: `npm run verify` sends two forged
      // X-Forwarded-For values, and two different answers mean TRUST_PROXY trusts too many hops.
      visitor: createHash("sha256")
        .update(request.headers.get(CLIENT_ADDRESS_HEADER) ?? "")
        .digest("hex")
        .slice(0, 12),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
