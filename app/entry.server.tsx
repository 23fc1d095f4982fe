import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { config } from "./studio.server";
import { documentHeaders } from "./utils/headers.server";
import { criticalCss } from "./utils/critical-css.server";
import { CriticalCssProvider } from "./utils/critical-css";
import { NonceProvider } from "./utils/nonce";
import { cacheableValues, createPageCache } from "./utils/page-cache.server";
import { deferHydration } from "./utils/deferred-hydration.server";

const ABORT_DELAY = 5_000;
const pageCache = createPageCache();

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = randomBytes(16).toString("base64");
  documentHeaders(responseHeaders, { nonce, supabaseUrl: config().publicEnv.supabaseUrl });
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");

  const values = cacheableValues(request, responseStatusCode, remixContext, nonce);
  const cached = values && pageCache.get(values);
  if (cached) return new Response(cached, { headers: responseHeaders, status: responseStatusCode });
  return renderToText(remixContext, request.url, nonce).then(({ html: rendered, failed }) => {
    // The home page works without JavaScript, so its hydration waits for the visitor (decision 008);
    // the 404 and error screens are tiny and hydrate at once.
    const html = isHomePage(remixContext) ? deferHydration(rendered) : rendered;
    if (values && !failed) pageCache.set(html, values);
    return new Response(html, { headers: responseHeaders, status: failed ? 500 : responseStatusCode });
  });
}

function isHomePage(context: EntryContext) {
  return context.staticHandlerContext.matches.at(-1)?.route.id === "routes/_index";
}

function Document({ context, url, nonce }: { context: EntryContext; url: string; nonce: string }) {
  return (
    <NonceProvider value={nonce}>
      <CriticalCssProvider value={criticalCss()}>
        <RemixServer context={context} url={url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </CriticalCssProvider>
    </NonceProvider>
  );
}

/**
 * The whole document as one string. Nothing in this app suspends (no `defer`, no lazy routes), so
 * streaming would send the same bytes in one piece anyway; a string can be cached (page cache) and
 * have its hydration deferred.
 */
function renderToText(remixContext: EntryContext, url: string, nonce: string) {
  return new Promise<{ html: string; failed: boolean }>((resolve, reject) => {
    let failed = false;
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (chunk: Buffer) => chunks.push(chunk));
    sink.on("end", () => {
      clearTimeout(timer);
      resolve({ html: Buffer.concat(chunks).toString("utf8"), failed });
    });
    const { pipe, abort } = renderToPipeableStream(<Document context={remixContext} url={url} nonce={nonce} />, {
      nonce,
      onAllReady: () => pipe(sink),
      onShellError: reject,
      onError(error: unknown) {
        failed = true;
        console.error(error);
      },
    });
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Cache-Control", "private, no-cache");
  return response;
};
