/**
 * The server half of deferred hydration (see inline-script-loader.ts and docs/decisions/008). Remix's
 * `<Scripts>` has no option to delay its work, so the rendered document is rewritten: module
 * preloads become links that fetch nothing (their `rel` kept in a data attribute), the router's
 * context script and the bootstrap module get inert types, and the small inline loader that restores
 * all of them on the visitor's first intent is added at the end of the body. What `<Scripts>`
 * renders is a private assumption (framework-assumptions.ts, SCRIPTS_MARKUP).
 */
import { closeMenuOnLinkSource } from "~/components/header-menu.inline";
import { SCRIPTS_MARKUP } from "./framework-assumptions";
import { inlineInputTrackerSource } from "./inline-input-tracker";
import { schedulerChannelSource } from "./inline-scheduler-channel";
import { DEFERRED_ASYNC, DEFERRED_REL, DEFERRED_TYPES, INERT_REL, inlineScriptLoaderSource } from "./inline-script-loader";
import { sendBeforeHydrationSource } from "./inline-send-before-hydration";

const all = (literal: string) => new RegExp(literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g");
const MODULE_PRELOAD = all(SCRIPTS_MARKUP.modulePreload);
const CONTEXT = all(SCRIPTS_MARKUP.context);
const BOOTSTRAP = all(SCRIPTS_MARKUP.bootstrap);
const ANY_MODULE = /<script type="module"/g;

export function deferHydration(html: string): string {
  const count = (pattern: RegExp) => [...html.matchAll(pattern)].length;
  // One of each, and no other module, or this is not the document Remix 2 renders: leave it untouched
  // (it hydrates at once).
  if (count(BOOTSTRAP) !== 1 || count(ANY_MODULE) !== 1 || count(CONTEXT) !== 1 || !html.includes("</body>")) return html;
  const inert = html
    // A `<link>` in `<body>` needs a `rel` of a kind allowed there (HTML): `pingback` is the one that
    // makes no browser fetch anything.
    .replace(MODULE_PRELOAD, `<link rel="${INERT_REL}" ${DEFERRED_REL}="modulepreload"`)
    .replace(CONTEXT, SCRIPTS_MARKUP.context.replace("<script>", `<script type="${DEFERRED_TYPES.script}">`))
    // `async` is for scripts, not for a data block (HTML): kept aside until the loader runs it.
    .replace(BOOTSTRAP, `<script type="${DEFERRED_TYPES.module}" ${DEFERRED_ASYNC}=""`);
  const end = inert.lastIndexOf("</body>");
  // The scheduler's channel (before the loader can run React's code), the input tracker, the early Send,
  // the menu's link handler and the loader, like every inline script, are allowed by their hash (csp.server.ts).
  const inline =
    schedulerChannelSource() +
    inlineInputTrackerSource() +
    sendBeforeHydrationSource() +
    closeMenuOnLinkSource() +
    inlineScriptLoaderSource();
  return `${inert.slice(0, end)}<script>${inline}</script>${inert.slice(end)}`;
}
