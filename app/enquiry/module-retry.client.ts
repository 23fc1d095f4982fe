/**
 * A module download that failed, made again. Firefox keeps a failed dynamic import for the page's
 * whole life (its module map holds the failure), so `import()` of the same address fails again at once,
 * without a request: measured on Firefox 153, a download cut off once failed every later import of
 * it in that page. Chromium fetches again. So the second try asks for the same file at an address the
 * page has not used yet: the address the browser names in its error (Firefox and Chromium do: "error
 * loading dynamically imported module: <url>", "Failed to fetch dynamically imported module: <url>"),
 * with a query the static files' server ignores. Without an address in the error (WebKit), the error
 * stands: the Send's own second try imports the same address again (send.client.ts), as before.
 */

/** The site's own built file the error names, at a new address; null when the error names none. */
export function retryAddress(error: unknown, origin: string, attempt: number): string | null {
  // The whole address (a host may hold ".js" itself: studio.js.org), without a sentence's closing mark.
  const named = /https?:\/\/[^\s"'<>]+/.exec(String(error))?.[0].replace(/[.,;:)]+$/, "");
  if (!named) return null; // WebKit names none
  let url: URL;
  try {
    url = new URL(named);
  } catch {
    return null;
  }
  // Only the site's own built scripts: an error's text never chooses what the page runs.
  if (url.origin !== origin || !/^\/build\/.+\.js$/.test(url.pathname)) return null;
  url.search = `?retry=${attempt}`;
  return url.href;
}

/** `load()`, and once more at a new address if it fails and the error names one. */
export async function importWithRetry<T>(load: () => Promise<T>, attempt = Date.now()): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const again = retryAddress(error, location.origin, attempt);
    if (!again) throw error;
    return (await import(/* @vite-ignore */ again)) as T;
  }
}
