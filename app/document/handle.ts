/**
 * How a route's document is served, declared by the route itself (`export const handle`), so the
 * document pipeline never names routes:
 *   island: true    the page's booking form becomes React's when the visitor starts on it (decision 030);
 *                   without it, the form only posts (a page for visitors without JavaScript)
 *   cache: "public" the HTML is the same for every visitor: shared caches may keep it (decision 012)
 */
import type { EntryContext } from "@remix-run/node";

export type DocumentHandle = { island?: true; cache?: "public" };

/** The handle of the deepest matched route (the page), or {} when it declares none. */
export function documentHandle(context: EntryContext): DocumentHandle {
  const leaf = context.staticHandlerContext.matches.at(-1);
  const handle = leaf ? (context.routeModules[leaf.route.id]?.handle as DocumentHandle | undefined) : undefined;
  return handle ?? {};
}
