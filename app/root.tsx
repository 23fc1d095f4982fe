import type { LinksFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { isRouteErrorResponse, Links, LiveReload, Meta, Outlet, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { errorScreenMeta, RouterErrorScreen } from "./components/ErrorScreen";
import { config } from "./config.server";
import { InlineStyles } from "./document/critical-css";
import "./styles/global.css";
import { BACKGROUND } from "./styles/palette";
import { visuallyHidden } from "./styles/utilities.css";
import { ANNOUNCER_ID } from "./toasts/announce";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon-32.png", type: "image/png", sizes: "32x32" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "manifest", href: "/site.webmanifest" },
];

// The router's error screen is a document too, and every document needs a title (HTML). The routes'
// own meta replace this one.
export const meta = errorScreenMeta;

export async function loader() {
  const { studio, publicEnv } = config();
  return json({ studio, publicEnv });
}

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

/**
 * Every document. None carries Remix's client runtime: the pages are HTML, and the home page's booking
 * form is an island of its own (decision 030), added by the document pipeline.
 */
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
        {/* `npm run dev` only: reloads the page when an edit is rebuilt. Renders nothing in production. */}
        <LiveReload />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** The router's fallback screen: the status of a route error, or the thrown message. */
export function ErrorBoundary() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`.trim()
    : error instanceof Error
      ? error.message
      : String(error);
  return <RouterErrorScreen detail={detail} />;
}
