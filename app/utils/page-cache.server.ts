/**
 * Render once, stamp per request. The home page's HTML differs between requests only in three
 * values: the CSP nonce, and the form's idempotency key and timestamp (index loader). A cached copy
 * keeps those as placeholders and each request fills in its own, so `/` is not re-rendered by React
 * on every hit. Only plain GETs of `/` that rendered 200 without action data are cached; the cache
 * is per process (configuration is read once per process too). See docs/decisions/007-page-cache.md.
 */
import type { EntryContext } from "@remix-run/node";

export type PerRequestValues = Record<"nonce" | "idempotencyKey" | "renderedAt", string>;

const PLACEHOLDERS: PerRequestValues = {
  nonce: "\u0000nonce\u0000",
  idempotencyKey: "\u0000idempotency-key\u0000",
  renderedAt: "\u0000rendered-at\u0000",
};

const INDEX_ROUTE = "routes/_index";

/** The values this response carries, when it is one the cache may serve; otherwise null. */
export function cacheableValues(request: Request, status: number, context: EntryContext, nonce: string): PerRequestValues | null {
  const url = new URL(request.url);
  const handler = context.staticHandlerContext;
  if (request.method !== "GET" || url.pathname !== "/" || url.search !== "" || status !== 200) return null;
  if (handler.actionData || handler.errors) return null;
  const data = handler.loaderData[INDEX_ROUTE] as { idempotencyKey?: string; renderedAt?: number } | undefined;
  if (!data?.idempotencyKey || data.renderedAt === undefined) return null;
  return { nonce, idempotencyKey: data.idempotencyKey, renderedAt: String(data.renderedAt) };
}

export function createPageCache() {
  let template: { key: string; html: string } | undefined;
  // The footer shows the year: a new year is a new page.
  const cacheKey = () => String(new Date().getFullYear());

  return {
    /** The cached page stamped with `values`, or undefined on a miss. */
    get(values: PerRequestValues): string | undefined {
      if (!template || template.key !== cacheKey()) return undefined;
      let html = template.html;
      for (const name of Object.keys(PLACEHOLDERS) as (keyof PerRequestValues)[]) {
        html = html.replaceAll(PLACEHOLDERS[name], values[name]);
      }
      return html;
    },
    /** Keeps `html` (rendered with `values`) as the template, if each value is unambiguous in it. */
    set(html: string, values: PerRequestValues) {
      let templated = html;
      for (const name of Object.keys(PLACEHOLDERS) as (keyof PerRequestValues)[]) {
        if (!html.includes(values[name])) return; // nothing to stamp: do not cache what we cannot reproduce
        templated = templated.replaceAll(values[name], PLACEHOLDERS[name]);
      }
      template = { key: cacheKey(), html: templated };
    },
  };
}
