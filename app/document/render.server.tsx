/**
 * The document pipeline, one entry point: render the page to HTML (no page carries Remix's client
 * runtime), add its inline script (the menu, and the booking form's island where the route asks:
 * handle.island), inline the stylesheet, allow its inline scripts by hash, set the security and
 * caching headers, and answer conditional requests. A route whose `handle.cache` is "public" renders
 * the same bytes for every visitor, so its document is rendered once per process (per year: the footer
 * shows it) and then served from memory; a CDN in front keeps it too (decision 012).
 */
import { createHash } from "node:crypto";
import { PassThrough } from "node:stream";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { config } from "~/config.server";
import { CriticalCssProvider } from "./critical-css";
import { criticalCss } from "./critical-css.server";
import { inlineScriptHashes, inlineStyleHashes } from "./csp.server";
import { documentHandle } from "./handle";
import { documentHeaders } from "./headers.server";
import { addInlineScripts } from "./inline-scripts.server";
import { toastCss } from "./toast-styles.server";

const ABORT_DELAY = 5_000;

type RenderedDocument = {
  html: string;
  etag: string;
  scriptHashes: string[];
  styleHashes: string[];
  failed: boolean;
  /** The kept document compressed once (brotli at its best, gzip), instead of on every request. */
  encoded?: { br: Buffer; gzip: Buffer };
};

/**
 * Documents of "public" routes, by route and year: at most one per such route, whatever path, query
 * or header a request chooses (the front door already sends odd spellings of a path to its one URL).
 */
const memo = new Map<string, RenderedDocument>();

/** How many documents are kept in memory (for /healthz: it never grows with what requests choose). */
export function documentsInMemory() {
  return memo.size;
}

export async function renderDocument(request: Request, status: number, headers: Headers, context: EntryContext): Promise<Response> {
  const handle = documentHandle(context);
  const { actionData, errors } = context.staticHandlerContext;
  const reading = request.method === "GET" || request.method === "HEAD";
  const shared = handle.cache === "public" && reading && status === 200 && !actionData && !errors;
  // The document of a "public" route is the same for every visitor and every URL that reaches it.
  const route = context.staticHandlerContext.matches.at(-1)?.route.id;
  const memoKey = shared && route ? `${route}:${new Date().getFullYear()}` : undefined;

  let document = memoKey ? memo.get(memoKey) : undefined;
  if (!document) {
    const rendered = await renderToText(context, request.url);
    // An error document (a route error: a method a page does not take, a loader that threw) is read, not
    // used: it gets no island (decision 024).
    const html = addInlineScripts(rendered.html, { island: !errors && handle.island === true, manifest: context.manifest });
    document = {
      html,
      etag: etagOf(html),
      scriptHashes: inlineScriptHashes(html),
      styleHashes: inlineStyleHashes(html),
      failed: rendered.failed,
    };
    if (memoKey && !document.failed) {
      // Compressed once per document, never per request.
      const bytes = Buffer.from(document.html);
      document.encoded = {
        br: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        gzip: gzipSync(bytes, { level: 9 }),
      };
      memo.set(memoKey, document);
    }
  }

  documentHeaders(headers, {
    scriptHashes: document.scriptHashes,
    styleHashes: document.styleHashes,
    supabaseUrl: config().publicEnv.supabaseUrl,
    liveReload: config().liveReload,
    reportUrl: config().cspReportUrl,
    cache: shared && !document.failed ? "public" : "private",
  });
  if (!shared) return new Response(document.html, { status: document.failed ? 500 : status, headers });
  headers.set("ETag", document.etag);
  if (matches(request.headers.get("If-None-Match"), document.etag)) return new Response(null, { status: 304, headers });
  const encoding = document.encoded && preferredEncoding(request.headers.get("Accept-Encoding"));
  if (!document.encoded || !encoding) return new Response(document.html, { status, headers });
  // Already encoded: remix-serve's compression leaves a response with a Content-Encoding alone.
  headers.set("Content-Encoding", encoding);
  return new Response(new Uint8Array(document.encoded[encoding]), { status, headers });
}

function preferredEncoding(acceptEncoding: string | null): "br" | "gzip" | undefined {
  const accepted = (acceptEncoding ?? "").split(",").map((part) => part.trim().split(";"));
  const allows = (name: string) => accepted.some(([coding, q]) => coding === name && !/q=0(\.0*)?$/.test(q?.trim() ?? ""));
  return allows("br") ? "br" : allows("gzip") ? "gzip" : undefined;
}

/** A strong validator: the SHA-256 of the document's bytes. */
function etagOf(html: string) {
  return `"${createHash("sha256").update(html).digest("base64url").slice(0, 32)}"`;
}

/** If-None-Match compares weakly (RFC 9110): a W/ prefix added by a proxy still matches. */
function matches(ifNoneMatch: string | null, etag: string) {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * The whole document as one string. Nothing in this app suspends (no `defer`, no lazy routes), so
 * streaming would send the same bytes in one piece anyway; a string can be kept, hashed and deferred.
 */
function renderToText(context: EntryContext, url: string) {
  return new Promise<{ html: string; failed: boolean }>((resolve, reject) => {
    let failed = false;
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (chunk: Buffer) => chunks.push(chunk));
    sink.on("end", () => {
      clearTimeout(timer);
      resolve({ html: Buffer.concat(chunks).toString("utf8"), failed });
    });
    const { pipe, abort } = renderToPipeableStream(
      <CriticalCssProvider value={{ critical: criticalCss(), toasts: toastCss() }}>
        <RemixServer context={context} url={url} abortDelay={ABORT_DELAY} />
      </CriticalCssProvider>,
      {
        onAllReady: () => pipe(sink),
        onShellError: reject,
        onError(error: unknown) {
          failed = true;
          console.error(error);
        },
      },
    );
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}
