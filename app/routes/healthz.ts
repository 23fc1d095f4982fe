// Liveness for the container HEALTHCHECK, load balancers and `npm run verify`: the server answers, its
// configuration passed the checks at start (it would not be running otherwise), what the function
// last said (app/server/function-check.server.ts), and how many documents are kept in memory (one
// per cacheable route, whatever requests arrive).
import { json } from "@remix-run/node";
import { config, localValues } from "~/config.server";
import { documentsInMemory } from "~/document/render.server";
import { functionCheck } from "~/server/function-check.server";

export function loader() {
  const { publicEnv, relaySecret, production } = config();
  return json(
    {
      status: "ok",
      configuration: { valid: true, production, localValues: localValues() },
      function: functionCheck({ supabaseUrl: publicEnv.supabaseUrl, relaySecret }),
      documentsInMemory: documentsInMemory(),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
