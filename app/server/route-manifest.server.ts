/**
 * Remix's route manifest endpoint (`/__manifest?p=…&version=…`, lazy route discovery) serves a client
 * router the routes of paths it has not seen. No page of this site carries a client router (decision 030),
 * so nothing the site sends asks for it: every request for it is refused (404, kept nowhere), and nobody
 * learns the site's routes from it, nor makes a CDN keep a year's entry per query (decision 024).
 */
import type { IncomingMessage } from "node:http";

/** Where Remix answers with the manifest (server-runtime 2.17.5, dist/server.js: `${basename}/__manifest`, basename "/"). */
export const MANIFEST_PATH = "/__manifest";

/** Whether `request` asks for the route manifest, in any method, with any query. */
export function asksForRouteManifest(request: IncomingMessage): boolean {
  const target = request.url ?? "/";
  const queryAt = target.indexOf("?");
  return (queryAt === -1 ? target : target.slice(0, queryAt)) === MANIFEST_PATH;
}
