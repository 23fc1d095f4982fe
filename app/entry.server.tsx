import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { config } from "./studio.server";
import { documentHeaders } from "./utils/headers.server";
import { criticalCss } from "./utils/critical-css.server";
import { CriticalCssProvider } from "./utils/critical-css";
import { NonceProvider } from "./utils/nonce";
import { cacheableValues, createPageCache } from "./utils/page-cache.server";

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
  if (values) {
    const cached = pageCache.get(values);
    if (cached) return new Response(cached, { headers: responseHeaders, status: responseStatusCode });
    return renderToText(remixContext, request.url, nonce).then((html) => {
      pageCache.set(html, values);
      return new Response(html, { headers: responseHeaders, status: responseStatusCode });
    });
  }
  // Bots get the whole document at once; people get the shell as soon as it is ready.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <Document context={remixContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          resolve(
            new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell is ready are reported by onShellError.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
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

/** The whole document as one string (for the page cache). */
function renderToText(remixContext: EntryContext, url: string, nonce: string) {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (chunk: Buffer) => chunks.push(chunk));
    sink.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    const { pipe, abort } = renderToPipeableStream(
      <Document context={remixContext} url={url} nonce={nonce} />,
      { nonce, onAllReady: () => pipe(sink), onShellError: reject, onError: (error: unknown) => console.error(error) },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Cache-Control", "private, no-cache");
  return response;
};
