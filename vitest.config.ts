import path from "node:path";
import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(__dirname, "app") } },
  test: {
    restoreMocks: true,
    clearMocks: true,
    projects: [
      {
        extends: true,
        // Without the plugin, importing a *.css.ts file fails ("Styles were unable to be assigned to a file").
        // Only the components' tests import one: loading it cost every other Vitest run 1.6 CPU-s.
        plugins: [vanillaExtractPlugin()],
        test: {
          name: "unit",
          globals: true,
          // Threads, not processes: the same tests in 36 CPU-s instead of 43 (no test here needs a process of its own).
          pool: "threads",
          // One environment per worker, not per file: 16 CPU-s instead of 44 (happy-dom and the set-up
          // were most of it). tests/setup-unit.ts gives each file fresh modules and each test a fresh page.
          isolate: false,
          // npm test runs these beside the browser suite on a busy machine, where a property test of
          // hundreds of runs once took more than Vitest's default of 5 s; a hang still fails.
          testTimeout: 30_000,
          environment: "happy-dom",
          include: ["app/**/*.test.{ts,tsx}", "supabase/functions/_shared/**/*.test.ts"],
          setupFiles: ["tests/setup-unit.ts"],
        },
      },
      {
        // The site's production server (the build) at start and under what requests choose, on the local stack.
        extends: true,
        test: {
          name: "site",
          environment: "node",
          include: ["tests/site/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each file starts its own stack on free ports; most of their time is spent waiting on sockets and timers.
          fileParallelism: true,
        },
      },
      {
        // One visitor's journey on Firefox and on WebKit, driven from outside (tests/engines/journey.ts),
        // one engine after the other, against one local stack.
        extends: true,
        test: {
          name: "engines",
          environment: "node",
          include: ["tests/engines/**/*.test.ts"],
          globalSetup: ["tests/engines/stack.setup.ts"],
          testTimeout: 240_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        // `npm run stack` itself, started as a developer starts it (real PostgreSQL, Deno, SMTP, site).
        extends: true,
        test: {
          name: "stack",
          environment: "node",
          include: ["tests/stack/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Every mail the function sends, through the real SMTP catcher: SpamAssassin, the Nu checker, rendering.
        extends: true,
        test: { name: "mail", environment: "node", include: ["tests/mail/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000 },
      },
    ],
  },
});
