/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/*.css.ts"],
  serverModuleFormat: "esm",
  // Minified, for the page's inline script: it is the server's own functions, serialised with
  // Function.prototype.toString, and the first view's HTML is budgeted (decision 005).
  serverMinify: true,
  // The function's contract lives in supabase/functions/_shared and is imported as `#shared/*`
  // (package.json "imports"): bundled into the server build like the app's own code, not left to Node.
  serverDependenciesToBundle: [/^#shared\//],
  watchPaths: ["supabase/functions/_shared/**/*.ts"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
