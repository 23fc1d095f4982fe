// Part of `npm run build`: each built script and stylesheet under public/build/ gets a brotli copy beside
// it (name.js.br), compressed once at the best quality. The site serves it to browsers that accept brotli
// (app/server/precompressed.server.ts) instead of compressing on every request at remix-serve's quality 4:
// a fifth fewer bytes for the booking form's island and supabase-js (decision 030).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants } from "node:zlib";

const ROOT = path.resolve(import.meta.dirname, "../../public/build");
let count = 0;
const visit = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) visit(file);
    else if (/\.(js|css)$/.test(entry.name)) {
      const bytes = readFileSync(file);
      const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
      writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params }));
      count++;
    }
  }
};
visit(ROOT);
if (process.argv.includes("--verbose")) console.log(`precompress: ${count} files`);
