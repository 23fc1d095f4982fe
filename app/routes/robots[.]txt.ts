import { config } from "~/config.server";
import { methodNotAllowed } from "~/server/method-not-allowed.server";

export function loader() {
  const { siteUrl } = config().studio;
  return new Response(`User-agent: *\nAllow: /\n\nSitemap: ${siteUrl}/sitemap.xml\n`, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}

export const action = methodNotAllowed;
