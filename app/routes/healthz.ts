// Liveness for the container HEALTHCHECK, load balancers and `npm run verify`: the server answers, its
// configuration passed the checks at start (it would not be running otherwise), what the function
// last said (app/server/function-check.server.ts), how many documents are kept in memory (one per
// cacheable route, whatever requests arrive), and whether a proxy in front is one TRUST_PROXY names.
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { config, localValues } from "~/config.server";
import { documentsInMemory } from "~/document/render.server";
import { FORWARDED_VIA_HEADER } from "~/server/front-door.server";
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
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
