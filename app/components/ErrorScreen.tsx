import { Link } from "@remix-run/react";
import { notFound } from "~/content";
import * as styles from "./ErrorScreen.css";

/** A centred message with a way home; used by the 404 page and the router's error screen. */
export function ErrorScreen({ code, title, detail }: { code?: string; title: string; detail?: string }) {
  return (
    <main className={styles.screen}>
      <div className={styles.panel}>
        {code ? <p className={styles.code}>{code}</p> : null}
        <h1 className={styles.title}>{title}</h1>
        {detail ? <p className={styles.detail}>{detail}</p> : null}
        {/* Not discovered ahead (Remix's lazy route discovery would fetch the manifest for it as the page
            renders, and a visitor leaving within a second aborts that fetch, which Remix logs as an
            error in Firefox and WebKit): the route is looked up when the link is followed. */}
        <Link to="/" className={styles.home} reloadDocument={!code} discover="none">
          {notFound.link}
        </Link>
      </div>
    </main>
  );
}
