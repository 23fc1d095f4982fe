import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { NotFoundScreen, notFoundMeta } from "~/components/ErrorScreen";

export const meta = notFoundMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  console.warn(`404: no route for ${JSON.stringify(pathname)}`);
  return json({ pathname }, { status: 404 });
}

export default function NotFound() {
  return <NotFoundScreen />;
}
