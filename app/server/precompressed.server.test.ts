import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptsBrotli, answerPrecompressed, precompressedFiles } from "./precompressed.server";

function publicWith(files: Record<string, string>) {
  const root = mkdtempSync(path.join(tmpdir(), "precompressed-"));
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(root, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    if (/\.(js|css)$/.test(name)) writeFileSync(`${file}.br`, brotliCompressSync(Buffer.from(text)));
  }
  return root;
}

function exchange(method: string, url: string, headers: Record<string, string>) {
  const sent: { status?: number; headers?: Record<string, string>; body?: Buffer } = {};
  const response = {
    writeHead: (status: number, given: Record<string, string>) => Object.assign(sent, { status, headers: given }),
    end: (body?: Buffer) => void (sent.body = body),
  } as unknown as ServerResponse;
  return { request: { method, url, headers } as unknown as IncomingMessage, response, sent };
}

describe("the built scripts in their brotli copies", () => {
  const root = publicWith({ "build/_shared/chunk-A.js": "export const a = 1;".repeat(50), "build/app.css": "a{}", "photos/x.jpg": "jpg" });
  const files = precompressedFiles(root);

  it("keeps a copy for each built script and stylesheet, and nothing outside /build", () => {
    expect([...files.keys()].sort()).toEqual(["/build/_shared/chunk-A.js", "/build/app.css"]);
  });

  it("answers a browser that takes brotli with the copy, immutable, varying by encoding", () => {
    const { request, response, sent } = exchange("GET", "/build/_shared/chunk-A.js?v=1", { "accept-encoding": "gzip, deflate, br" });
    expect(answerPrecompressed(request, response, files)).toBe(true);
    expect(sent.status).toBe(200);
    expect(sent.headers).toMatchObject({
      "Content-Encoding": "br",
      Vary: "Accept-Encoding",
      "Cache-Control": "public, max-age=31536000, immutable",
    });
    expect(brotliDecompressSync(sent.body!).toString()).toBe("export const a = 1;".repeat(50));
    const again = exchange("GET", "/build/_shared/chunk-A.js", { "accept-encoding": "br", "if-none-match": sent.headers!.ETag! });
    answerPrecompressed(again.request, again.response, files);
    expect(again.sent.status).toBe(304);
  });

  it("leaves everything else to the static files: no brotli, br;q=0, another method, a path it does not hold", () => {
    for (const [method, url, accept] of [
      ["GET", "/build/_shared/chunk-A.js", "gzip"],
      ["GET", "/build/_shared/chunk-A.js", "br;q=0, gzip"],
      ["POST", "/build/_shared/chunk-A.js", "br"],
      ["GET", "/build/_shared/chunk-B.js", "br"],
      ["GET", "/photos/x.jpg", "br"],
    ] as const) {
      const { request, response, sent } = exchange(method, url, { "accept-encoding": accept });
      expect(answerPrecompressed(request, response, files), `${method} ${url} (${accept})`).toBe(false);
      expect(sent.status).toBeUndefined();
    }
  });

  it("reads Accept-Encoding as HTTP does: br with a weight above 0, in any case, anywhere in the list", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("gzip", "deflate", "zstd", "identity", "*"), { maxLength: 4 }),
        fc.option(fc.constantFrom("", ";q=0", ";q=0.0", ";q=0.5", ";q=1"), { nil: undefined }),
        fc.constantFrom("br", "BR", "Br"),
        (others, weight, name) => {
          const list = weight === undefined ? others : [...others, `${name}${weight}`];
          const expected = weight !== undefined && !/q=0(\.0)?$/.test(weight);
          expect(acceptsBrotli(list.join(", "))).toBe(expected);
        },
      ),
    );
  });
});
