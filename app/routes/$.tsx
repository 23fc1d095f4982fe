import { json } from "@remix-run/node";
import { NotFoundScreen, notFoundMeta } from "~/components/ErrorScreen";

export const meta = notFoundMeta;

// Answered 404; the site's request log writes the line (app/server/request-log.server.ts), once per kind.
export async function loader() {
  return json(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundScreen />;
}
