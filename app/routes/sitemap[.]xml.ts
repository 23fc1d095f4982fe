import { config } from "~/config.server";
import { methodNotAllowed } from "~/server/method-not-allowed.server";

/** One page: the home page. */
export function loader() {
  const { siteUrl } = config().studio;
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>${siteUrl}/</loc><changefreq>monthly</changefreq><priority>1.0</priority></url>
</urlset>
`;
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}

export const action = methodNotAllowed;
