/**
 * The action of a route that takes no posts (robots.txt, sitemap.xml, /healthz): a plain 405 with the
 * methods it does take. Without one, Remix answers a post with its own JSON error body
 * ({"message":"Unexpected Server Error"}) and no Cache-Control.
 */
export function methodNotAllowed() {
  return new Response("Method Not Allowed\n", {
    status: 405,
    headers: { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
