import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { isRouteErrorResponse, Links, LiveReload, Meta, Outlet, Scripts, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorScreen } from "./components/ErrorScreen";
import { config } from "./config.server";
import { errorScreen } from "./content";
import { InlineStyles } from "./document/critical-css";
import { ShellHydrated } from "./hydration/HydrationPart";
import "./styles/global.css";
import { BACKGROUND } from "./styles/palette";
import { visuallyHidden } from "./styles/utilities.css";
import { ANNOUNCER_ID } from "./toasts/announce";
import { ToastViewport } from "./toasts/Toasts";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon-32.png", type: "image/png", sizes: "32x32" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "manifest", href: "/site.webmanifest" },
];

// The router's error screen is a document too, and every document needs a title (HTML). The routes'
// own meta replace this one; it shows only where the root's error boundary renders the page.
export const meta: MetaFunction = () => [{ title: errorScreen.title }, { name: "robots", content: "noindex" }];

export async function loader() {
  const { studio, publicEnv } = config();
  return json({ studio, publicEnv });
}

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={BACKGROUND} />
        <Meta />
        <InlineStyles />
        <Links />
      </head>
      <body id="top">
        {children}
        {/* Present from the first byte, so screen readers hear what is written into it later. */}
        <div id={ANNOUNCER_ID} className={visuallyHidden} role="status" aria-live="polite" aria-atomic="true" />
        <ToastViewport />
        <Scripts />
        {/* After everything else: marks hydration done once every part has (guard-input-from-react.ts). */}
        <ShellHydrated />
        {/* `npm run dev` only: reloads the page when an edit is rebuilt. Renders nothing in production. */}
        <LiveReload />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** The router's fallback screen (spec point 2): the status of a route error, or the thrown message. */
export function ErrorBoundary() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`.trim()
    : error instanceof Error
      ? error.message
      : String(error);
  return <ErrorScreen title={errorScreen.title} detail={detail} />;
}
