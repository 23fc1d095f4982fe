// @vitest-environment node
/**
 * Tripwires: each private assumption of the hydration layer (framework-assumptions.ts), checked
 * against the installed packages' own source. A failure names the assumption an upgrade broke; read
 * the new source, change the layer (or let it fall back), then update the assumption and READ_FROM.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  HYDRATION_TEXT_PATCH,
  REACT_DOM_LINE,
  REACT_HYDRATING_EVENTS,
  READ_FROM,
  REMIX_CONTEXT_GLOBAL,
  ROUTER_POPSTATE,
  SCHEDULER_TASKS,
  SCRIPTS_MARKUP,
  SHARED_CHUNK_PATH,
} from "./framework-assumptions";

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));
const installed = (name: string) =>
  (JSON.parse(readFileSync(path.join(packageDir(name), "package.json"), "utf8")) as { version: string }).version;
/** Whether `text` (a package's source) contains `part`; a failure names the assumption, not the source. */
const expectIn = (text: string, part: string, assumption: string) => expect(text.includes(part), `${assumption}: ${part}`).toBe(true);
/** A file of an installed package, with every run of whitespace made one space. */
const source = (name: string, file: string) => readFileSync(path.join(packageDir(name), file), "utf8").replace(/\s+/g, " ");

const REACT_DOM_DEV = () => source("react-dom", "cjs/react-dom.development.js");
const REACT_DOM_PROD = () => source("react-dom", "cjs/react-dom.production.min.js");

describe("the private assumptions of the hydration layer still hold for the installed packages", () => {
  for (const [name, version] of Object.entries(READ_FROM)) {
    it(`${name} is ${version}, the version the assumptions were read from (another: re-read each below, then READ_FROM)`, () => {
      expect(installed(name), `${name} changed: re-read the assumptions in app/hydration/framework-assumptions.ts`).toBe(version);
    });
  }

  it("SCRIPTS_MARKUP: <Scripts> renders module preloads, one `window.__remixContext = ` script and one async module bootstrap", () => {
    const scripts = source("@remix-run/react", "dist/components.js");
    expectIn(scripts, 'rel: "modulepreload"', "SCRIPTS_MARKUP.modulePreload: <Scripts> renders <link rel=modulepreload>");
    expectIn(
      scripts,
      "let contextScript = staticContext ? `window.__remixContext = ${serverHandoffString};",
      "SCRIPTS_MARKUP.context: the context script's text",
    );
    expectIn(
      scripts,
      'dangerouslySetInnerHTML: markup.createHtml(routeModulesScript), type: "module", async: true',
      "SCRIPTS_MARKUP.bootstrap: the bootstrap is an inline async module",
    );
    // How react-dom's server writes those elements.
    const rendered = renderToStaticMarkup(
      <>
        <link rel="modulepreload" href="/build/a.js" />
        <script dangerouslySetInnerHTML={{ __html: "window.__remixContext = {};" }} />
        <script type="module" async dangerouslySetInnerHTML={{ __html: "" }} />
      </>,
    );
    expect(rendered, "SCRIPTS_MARKUP as react-dom/server writes it").toContain(SCRIPTS_MARKUP.modulePreload);
    expect(rendered, "SCRIPTS_MARKUP.context as react-dom/server writes it").toContain(SCRIPTS_MARKUP.context);
    expect(rendered, "SCRIPTS_MARKUP.bootstrap as react-dom/server writes it").toContain(SCRIPTS_MARKUP.bootstrap);
  });

  it("REMIX_CONTEXT_GLOBAL: RemixBrowser reads the router's state from window.__remixContext", () => {
    expectIn(source("@remix-run/react", "dist/browser.js"), `window.${REMIX_CONTEXT_GLOBAL}.state`, "REMIX_CONTEXT_GLOBAL");
  });

  it("SHARED_CHUNK_PATH: the classic compiler writes shared chunks under build/_shared/", () => {
    const compiler = source("@remix-run/dev", "dist/compiler/js/compiler.js");
    expectIn(
      compiler,
      `chunkNames: "${SHARED_CHUNK_PATH.slice(1)}[name]-[hash]"`,
      "SHARED_CHUNK_PATH: esbuild's chunkNames in the classic compiler",
    );
  });

  it("REACT_HYDRATING_EVENTS: react-dom hydrates for exactly these discrete and continuous events", () => {
    const dev = REACT_DOM_DEV();
    const list = /var discreteReplayableEvents = \[([^\]]*)\]/.exec(dev)?.[1];
    expect(list, "REACT_HYDRATING_EVENTS.discrete: discreteReplayableEvents is gone").toBeDefined();
    const discrete = [...list!.replace(/\/\/[^']*/g, "").matchAll(/'([A-Za-z]+)'/g)].map((m) => m[1]);
    expect(discrete, "REACT_HYDRATING_EVENTS.discrete (discreteReplayableEvents)").toEqual([...REACT_HYDRATING_EVENTS.discrete]);
    // The production build the browser runs carries the same list.
    expectIn(
      REACT_DOM_PROD(),
      `"${REACT_HYDRATING_EVENTS.discrete.join(" ")}".split(" ")`,
      "REACT_HYDRATING_EVENTS.discrete in the production build",
    );
    const body = /function queueIfContinuousEvent\([^)]*\) \{(.*?)return false; \}/.exec(dev)?.[1];
    expect(body, "REACT_HYDRATING_EVENTS.continuous: queueIfContinuousEvent is gone").toBeDefined();
    const continuous = [...body!.matchAll(/case '([A-Za-z]+)':/g)].map((m) => m[1]);
    expect(continuous, "REACT_HYDRATING_EVENTS.continuous (queueIfContinuousEvent)").toEqual([...REACT_HYDRATING_EVENTS.continuous]);
  });

  it("REACT_DOM_LINE: the react-dom the browser gets reports the line the events were read from", () => {
    expect(installed("react-dom").startsWith(REACT_DOM_LINE), "REACT_DOM_LINE").toBe(true);
    // What `import { version } from "react-dom"` gives the entry in the browser.
    expect(/exports\.version="([^"]+)"/.exec(REACT_DOM_PROD())?.[1], "REACT_DOM_LINE: the production build's version export").toMatch(
      new RegExp(`^${REACT_DOM_LINE.replaceAll(".", "\\.")}`),
    );
  });

  it("ROUTER_POPSTATE: RemixBrowser sets the location urgently; the router hears popstate on window; React error 421", () => {
    const browser = source("@remix-run/react", "dist/browser.js");
    const subscribe = /return router\.subscribe\(newState => \{(.*?)\}\);/.exec(browser)?.[1] ?? "";
    expect(subscribe, "ROUTER_POPSTATE.remixBrowserUrgentUpdate").toContain(ROUTER_POPSTATE.remixBrowserUrgentUpdate);
    expect(subscribe, "ROUTER_POPSTATE.remixBrowserUrgentUpdate: now in a transition (the popstate re-dispatch may go)").not.toContain(
      "startTransition",
    );
    const router = source("@remix-run/router", "dist/router.js");
    expectIn(router, ROUTER_POPSTATE.routerListener, "ROUTER_POPSTATE.routerListener");
    expectIn(router, `const PopStateEventType = "${ROUTER_POPSTATE.event}";`, "ROUTER_POPSTATE.event");
    expectIn(REACT_DOM_DEV(), ROUTER_POPSTATE.react421Message, "ROUTER_POPSTATE.react421Message");
    expectIn(REACT_DOM_PROD(), "(421)", "ROUTER_POPSTATE.react421Message: error 421 in the production build");
  });

  it("HYDRATION_TEXT_PATCH: a differing text child under suppressHydrationWarning is written over, not thrown away", () => {
    const dev = REACT_DOM_DEV();
    expectIn(dev, HYDRATION_TEXT_PATCH.guard, "HYDRATION_TEXT_PATCH.guard");
    const at = dev.indexOf(HYDRATION_TEXT_PATCH.guard);
    expect(dev.slice(at, at + 300), "HYDRATION_TEXT_PATCH.patch").toContain(HYDRATION_TEXT_PATCH.patch);
  });

  it("SCHEDULER_TASKS: React's scheduler sends its slices through setImmediate where the page has one", () => {
    const dev = source("scheduler", "cjs/scheduler.development.js");
    expectIn(dev, SCHEDULER_TASKS.captured, "SCHEDULER_TASKS.captured: setImmediate read when the scheduler is evaluated");
    expectIn(dev, SCHEDULER_TASKS.preferred, "SCHEDULER_TASKS.preferred: setImmediate before MessageChannel");
    expect(dev.indexOf(SCHEDULER_TASKS.preferred), "SCHEDULER_TASKS.preferred: tried before MessageChannel").toBeLessThan(
      dev.indexOf("typeof MessageChannel !== 'undefined'"),
    );
    expect(source("scheduler", "cjs/scheduler.production.min.js"), "SCHEDULER_TASKS.minified").toMatch(SCHEDULER_TASKS.minified);
  });
});
