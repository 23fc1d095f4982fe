/** The 404 page and the router's error screen: HTML only, no script but the 404's console message. */
import type { MetaFunction } from "@remix-run/node";
import { errorScreen, notFound } from "~/content";
import * as styles from "./ErrorScreen.css";

export const notFoundMeta: MetaFunction = () => [{ title: `${notFound.code} · ${notFound.title}` }, { name: "robots", content: "noindex" }];
/** Every document needs a title: this one shows only where the root's error boundary renders the page. */
export const errorScreenMeta: MetaFunction = () => [{ title: errorScreen.title }, { name: "robots", content: "noindex" }];

// The spec's console message, from the page itself: the same text on every 404, so the CSP allows it by
// one hash, and the path comes from the browser's own address, never from the server's HTML.
const LOG_MISSING_PATH = `console.error("404 Error: User attempted to access non-existent route:", location.pathname);`;

export function NotFoundScreen() {
  return (
    <>
      <ErrorScreen code={notFound.code} title={notFound.title} />
      <script dangerouslySetInnerHTML={{ __html: LOG_MISSING_PATH }} />
    </>
  );
}

/** The router's fallback screen: the status of a route error, or the thrown message. */
export function RouterErrorScreen({ detail }: { detail: string }) {
  return <ErrorScreen title={errorScreen.title} detail={detail} />;
}

/** A centred message with a way home. */
export function ErrorScreen({ code, title, detail }: { code?: string; title: string; detail?: string }) {
  return (
    <main className={styles.screen}>
      <div className={styles.panel}>
        {code ? <p className={styles.code}>{code}</p> : null}
        <h1 className={styles.title}>{title}</h1>
        {detail ? <p className={styles.detail}>{detail}</p> : null}
        <a href="/" className={styles.home}>
          {notFound.link}
        </a>
      </div>
    </main>
  );
}
