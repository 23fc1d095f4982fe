/**
 * The server half of deferred hydration (see inline-script-loader.ts and docs/decisions/008). Remix's
 * `<Scripts>` has no option to delay its work, so the rendered document is rewritten: module
 * preloads lose their `rel` (kept in a data attribute), the router's context script and the
 * bootstrap module get inert types, and the small inline loader that restores all of them on the
 * visitor's first intent is added at the end of the body.
 */
import { closeMenuOnLinkSource } from "~/components/header-menu.inline";
import { DEFERRED_REL, DEFERRED_TYPES, hydrateOnIntentSource } from "./inline-script-loader";
import { trackInputSource } from "./inline-input-tracker";

const MODULE_PRELOAD = /<link rel="modulepreload"/g;
const CONTEXT = /<script>window\.__remixContext = /g;
const BOOTSTRAP = /<script type="module"/g;

export function deferHydration(html: string): string {
  const bootstraps = [...html.matchAll(BOOTSTRAP)];
  const contexts = [...html.matchAll(CONTEXT)];
  // One of each, or this is not the document Remix 2 renders: leave it untouched.
  if (bootstraps.length !== 1 || contexts.length !== 1 || !html.includes("</body>")) return html;
  const inert = html
    .replace(MODULE_PRELOAD, `<link ${DEFERRED_REL}="modulepreload"`)
    .replace(CONTEXT, `<script type="${DEFERRED_TYPES.script}">window.__remixContext = `)
    .replace(BOOTSTRAP, `<script type="${DEFERRED_TYPES.module}"`);
  const end = inert.lastIndexOf("</body>");
  // The input tracker, the menu's link handler and the loader, like every inline script, are allowed by
  // their hash (csp.server.ts).
  return `${inert.slice(0, end)}<script>${trackInputSource()}${closeMenuOnLinkSource()}${hydrateOnIntentSource()}</script>${inert.slice(end)}`;
}
