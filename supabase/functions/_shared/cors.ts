/** CORS for the functions the site calls from the browser. Every response carries these headers. */
import { ENQUIRY_HEADERS } from "./contact-message.ts";

export const ALLOWED_HEADERS = [
  "authorization",
  "x-client-info",
  "apikey",
  "content-type",
  ENQUIRY_HEADERS.idempotencyKey,
  ENQUIRY_HEADERS.fillMs,
  ENQUIRY_HEADERS.trap,
].join(", ");

/** Headers for a request from `origin`; only configured origins are echoed back. */
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
