import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { startupConfig } from "./config.server";
import { renderDocument } from "./document/render.server";
import { checkFunctionAtStart } from "./server/function-check.server";
import { installHttpServer, noteRequestError } from "./server/http-server.server";

// remix-serve imports this build before it listens: a configuration that cannot work ends the process
// here, and the server it then creates gets the site's time limits and front door. Then the site asks
// its function whether it recognises the site's relay secret (the owner's alarm if not).
const siteConfig = startupConfig();
installHttpServer(siteConfig);
checkFunctionAtStart({ supabaseUrl: siteConfig.publicEnv.supabaseUrl, relaySecret: siteConfig.relaySecret });

// Every document (the home page, the 404, the error screen) goes through the document pipeline.
export default function handleRequest(request: Request, status: number, headers: Headers, context: EntryContext) {
  return renderDocument(request, status, headers, context);
}

// An error while answering a request is written once its answer is known: a refusal as one line, a
// repeated one as a count (app/server/request-log.server.ts).
export const handleError = noteRequestError;

// The headers every response carries are added by the HTTP server (app/server/response-headers.server.ts).
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  response.headers.set("Cache-Control", "private, no-cache");
  return response;
};
