import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { ErrorScreen } from "~/components/ErrorScreen";
import { notFound } from "~/content";

export const meta: MetaFunction = () => [{ title: `${notFound.code} · ${notFound.title}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  console.warn(`404: no route for ${JSON.stringify(pathname)}`);
  return json({ pathname }, { status: 404 });
}

export default function NotFound() {
  const location = useLocation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", location.pathname);
  }, [location.pathname]);
  return <ErrorScreen code={notFound.code} title={notFound.title} />;
}
