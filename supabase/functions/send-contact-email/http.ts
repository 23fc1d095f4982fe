/** The function's HTTP answers: JSON, never cached. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** What any path that does not answer gets, a webhook that is not configured included: nothing to learn. */
export const notFound = () => json(404, { status: "error", message: "Not found." });
