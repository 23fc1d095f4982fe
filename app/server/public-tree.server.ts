/**
 * What public/ holds, walked once at start (the front door's folders, the brotli copies): each entry's
 * file path, its URL path and whether it is a folder. Bounded: a tree that grew past MAX_ENTRIES is read
 * only that far, whatever it holds.
 */
import { readdirSync } from "node:fs";
import path from "node:path";

/** public/ holds a few dozen entries; this is far past any real tree. */
const MAX_ENTRIES = 10_000;

export type PublicEntry = { file: string; url: string; folder: boolean };

/** The entries under `dir`, whose URL path is `at` ("" for public/ itself, "/build" for public/build). */
export function publicTree(dir = path.resolve("public"), at = ""): PublicEntry[] {
  const entries: PublicEntry[] = [];
  const visit = (folder: string, url: string) => {
    let listed: import("node:fs").Dirent[] = [];
    try {
      listed = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of listed) {
      if (entries.length >= MAX_ENTRIES) return;
      const item = { file: path.join(folder, entry.name), url: `${url}/${entry.name}`, folder: entry.isDirectory() };
      entries.push(item);
      if (item.folder) visit(item.file, item.url);
    }
  };
  visit(dir, at);
  return entries;
}
