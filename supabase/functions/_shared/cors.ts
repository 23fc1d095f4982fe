/** CORS for the functions the site calls from the browser. Every response carries these headers. */
import { corsHeaders as supabaseCors } from "@supabase/supabase-js/cors";
import { ENQUIRY_HEADERS } from "./contact-message.ts";

/**
 * The headers supabase-js sends (its own list, `@supabase/supabase-js/cors`, kept with the SDK: a new
 * SDK header such as x-retry-count is allowed without an edit here) and the enquiry's own.
 */
export const ALLOWED_HEADERS = [
  ...(supabaseCors["Access-Control-Allow-Headers"] ?? "").split(",").map((header) => header.trim()),
  ENQUIRY_HEADERS.idempotencyKey,
  ENQUIRY_HEADERS.fillMs,
  ENQUIRY_HEADERS.trap,
].join(", ");

/**
 * Headers for a request from `origin`; only configured origins are echoed back (supabase-js's
 * default is `*`, which would let any site's page post enquiries from its visitors' browsers).
 */
export function corsHeaders(origin: string | null, allowedOrigins: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": ALLOWED_HEADERS,
    "Access-Control-Max-Age": "86400",
    Vary: "Origin",
  };
  if (origin && allowedOrigins.includes(origin)) headers["Access-Control-Allow-Origin"] = origin;
  return headers;
}
