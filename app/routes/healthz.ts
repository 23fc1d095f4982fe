// Liveness for the container HEALTHCHECK and load balancers: anyone gets {"status":"ok"} and nothing
// else. The details are the owner's (docs/decisions/024): with `Authorization: Bearer <HEALTHZ_SECRET>`
// (`npm run verify` sends it) the answer adds that the configuration passed the checks at start and
// which local values it runs with, what the function last said (app/server/function-check.server.ts),
// how many documents are kept in memory (one per cacheable route, whatever requests arrive), and
// whether a proxy in front is one TRUST_PROXY names.
import { createHash } from "node:crypto";
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { config, localValues } from "~/config.server";
import { documentsInMemory } from "~/document/render.server";
import { CLIENT_ADDRESS_HEADER, FORWARDED_VIA_HEADER } from "~/server/front-door.server";
import { functionCheck } from "~/server/function-check.server";
import { methodNotAllowed } from "~/server/method-not-allowed.server";
import { holdsSecret } from "~/server/owner-secret.server";

const NEVER_KEPT = { "Cache-Control": "no-store" };

export function loader({ request }: LoaderFunctionArgs) {
  const { publicEnv, relaySecret, production, healthzSecret } = config();
  // Every call, the container's HEALTHCHECK's included, keeps the owner's relay alarm awake (at most one
  // check per 10 s, never waited for); only the owner is told what it found.
  const found = functionCheck({ supabaseUrl: publicEnv.supabaseUrl, relaySecret });
  if (!holdsSecret(request, healthzSecret)) return json({ status: "ok" }, { headers: NEVER_KEPT });
  return json(
    {
      status: "ok",
      configuration: { valid: true, production, localValues: localValues() },
      function: found,
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
    { headers: NEVER_KEPT },
  );
}

export const action = methodNotAllowed;
