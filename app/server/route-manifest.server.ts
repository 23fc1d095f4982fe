/**
 * Remix's route manifest endpoint (`/__manifest?p=/a&p=/b&version=…`, future flag v3_lazyRouteDiscovery:
 * the browser asks it for the routes of paths it has not seen) answers with `public, max-age=31536000,
 * immutable` for any query, and the catch-all route matches every path: each new query would be a new
 * entry kept a year by a CDN. So a request for it passes only as the browser sends it (@remix-run/react
 * 2.17.5, dist/fog-of-war.js: the paths sorted, each once, then the version), anything else is refused
 * (404, kept nowhere); and it may be kept (Remix's year) only for paths of the site's own routes (other
 * than the catch-all) with this build's version: a finite set. A path only the catch-all matches (a
 * client navigation to a page that does not exist) still gets Remix's answer, the 404 page's routes, and
 * so does another build's version (a page open across a deploy: Remix tells it to reload); neither is
 * kept anywhere. docs/decisions/024.
 */
import type { IncomingMessage } from "node:http";
import type { ServerBuild } from "@remix-run/node";

export type ServerRoutes = ServerBuild["routes"];

/** Where Remix answers with the manifest (server-runtime 2.17.5, dist/server.js: `${basename}/__manifest`, basename "/"). */
export const MANIFEST_PATH = "/__manifest";

export type ManifestVerdict = "not-a-manifest-request" | "pass" | "pass-uncached" | "refuse";

/**
 * What to do with `request` if it asks for the manifest: "pass" (the browser's own query, for the site's
 * own routes, this build), "pass-uncached" (the browser's own query for other paths or another build),
 * "refuse" (not a query the browser sends).
 */
export function routeManifestVerdict(
  request: IncomingMessage,
  { routes, version }: { routes: ServerRoutes; version: string },
): ManifestVerdict {
  const target = request.url ?? "/";
  const queryAt = target.indexOf("?");
  if ((queryAt === -1 ? target : target.slice(0, queryAt)) !== MANIFEST_PATH) return "not-a-manifest-request";
  if (request.method !== "GET" && request.method !== "HEAD") return "refuse";
  const query = queryAt === -1 ? "" : target.slice(queryAt + 1);
  const params = new URLSearchParams(query);
  const paths = params.getAll("p");
  const asSent = new URLSearchParams([...[...new Set(paths)].sort().map((path) => ["p", path]), ["version", params.get("version") ?? ""]]);
  if (paths.length === 0 || asSent.toString() !== query || paths.some((path) => !path.startsWith("/"))) return "refuse";
  const pages = routePatterns(routes);
  const ownPages = paths.every((path) => pages.some((pattern) => pattern.test(path)));
  return ownPages && params.get("version") === version ? "pass" : "pass-uncached";
}

const patterns = new WeakMap<ServerRoutes, RegExp[]>();

/** A pattern per route's full path, the catch-all's excepted (static segments and `:params`). */
function routePatterns(routes: ServerRoutes): RegExp[] {
  const known = patterns.get(routes);
  if (known) return known;
  const fullPath = (id: string | undefined): string[] => {
    const route = id === undefined ? undefined : routes[id];
    if (!route) return [];
    return [...fullPath(route.parentId), ...(route.path ?? "").split("/").filter(Boolean)];
  };
  const made = Object.values(routes)
    .filter((route) => route && !(route.path ?? "").includes("*"))
    .map((route) => {
      const segments = fullPath(route!.id).map((segment) => (segment.startsWith(":") ? "[^/]+" : escapeRegExp(segment)));
      // Case as written: the browser asks with the paths of its links, and other spellings would be more entries to keep.
      return new RegExp(`^/${segments.join("/")}$`);
    });
  patterns.set(routes, made);
  return made;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
