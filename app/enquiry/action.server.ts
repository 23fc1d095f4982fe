/**
 * The no-JavaScript path of the booking form: reads the posted form (within a size and time limit),
 * validates it with the shared contract and calls the same send-contact-email function from the
 * server, with the same library family (@supabase/functions-js) the browser uses. Every outcome of
 * the function becomes a page the visitor can act on (outcome.ts); nothing here throws.
 *
 * The page carries nothing per request (decision 012), so the idempotency key is derived here from the
 * message, the visitor's address and the day: the same post twice stores once, two visitors never
 * share an enquiry. The site vouches for the visitor's address to the function with the relay secret.
 */
import { createHash } from "node:crypto";
import { FunctionsClient, FunctionsFetchError, FunctionsHttpError } from "@supabase/functions-js";
import {
  CONTACT_FIELDS,
  ENQUIRY_HEADERS,
  FORM_META_FIELDS,
  hasRequiredFields,
  parseContactMessage,
  RELAY_HEADERS,
  type ContactMessage,
  type EnquiryResult,
} from "../../supabase/functions/_shared/contact-message.ts";
import { readBody } from "../../supabase/functions/_shared/read-body.ts";
import { OUTCOME_HTTP_STATUS, type FormOutcome } from "./outcome";

/** The largest form we read: 5,000 characters of details, each up to 12 bytes once percent-encoded. */
export const MAX_FORM_BYTES = 64 * 1024;
/** How long a visitor's browser may take to send the form's body. */
export const FORM_READ_TIMEOUT_MS = 10_000;

type Options = {
  supabaseUrl: string;
  anonKey: string;
  /** Shared with the function (ENQUIRY_RELAY_SECRET): vouches for the visitor's address. */
  relaySecret?: string;
  /** The site's own origins: a post from any other is refused. */
  siteOrigins: readonly string[];
  timeoutMs?: number;
};

export type ActionResult = { outcome: FormOutcome; httpStatus: number };

const EMPTY: ContactMessage = { name: "", email: "", projectTitle: "", projectDetails: "" };
const result = (outcome: FormOutcome, httpStatus = OUTCOME_HTTP_STATUS[outcome.status]): ActionResult => ({ outcome, httpStatus });
const refused = (httpStatus: number, values: ContactMessage = EMPTY) => result({ status: "refused", values }, httpStatus);

export async function submitEnquiryForm(request: Request, options: Options): Promise<ActionResult> {
  // Another site's page posting here (a cross-site form): browsers say so in these headers.
  const origin = request.headers.get("origin");
  if ((origin && origin !== "null" && !options.siteOrigins.includes(origin)) || request.headers.get("sec-fetch-site") === "cross-site") {
    return refused(403);
  }
  const type = request.headers.get("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) return refused(415);
  const body = await readBody(request, MAX_FORM_BYTES, FORM_READ_TIMEOUT_MS);
  if (body === "too-large") return refused(413);
  if (body === "too-slow") return refused(408);
  if (body.byteLength === 0) return refused(400);
  let form: FormData;
  try {
    form = await new Response(Buffer.from(body), { headers: { "content-type": type } }).formData();
  } catch {
    return refused(400);
  }

  const values = Object.fromEntries(
    CONTACT_FIELDS.map((field) => {
      const value = form.get(field);
      return [field, typeof value === "string" ? value : ""];
    }),
  ) as ContactMessage;
  if (!hasRequiredFields(values)) return result({ status: "missing", values });
  const parsed = parseContactMessage(values);
  if (!parsed.ok) return result({ status: "invalid", values, fieldErrors: parsed.fieldErrors });

  if (!options.relaySecret) {
    // Without it the function cannot tell no-JS visitors apart; production refuses to start (studio.server.ts).
    console.error("Error sending contact message: ENQUIRY_RELAY_SECRET is not set, the no-JavaScript form cannot send");
    return result({ status: "failed", values });
  }
  const client = clientAddress(request);
  const headers: Record<string, string> = {
    [ENQUIRY_HEADERS.idempotencyKey]: derivedKey(parsed.message, client, options.relaySecret),
    [ENQUIRY_HEADERS.trap]: String(form.get(FORM_META_FIELDS.trap) ?? ""),
    [RELAY_HEADERS.secret]: options.relaySecret,
  };
  if (client) headers[RELAY_HEADERS.client] = client;

  const functions = new FunctionsClient(`${options.supabaseUrl}/functions/v1`, {
    headers: { apikey: options.anonKey, Authorization: `Bearer ${options.anonKey}` },
  });
  try {
    const { error } = await functions.invoke<EnquiryResult>("send-contact-email", {
      body: parsed.message,
      headers,
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    if (!error) return result({ status: "ok" });
    const answer = error instanceof FunctionsHttpError
      ? ((await (error.context as Response).json().catch(() => undefined)) as EnquiryResult | undefined)
      : undefined;
    if (answer?.status === "invalid") return result({ status: "invalid", values, fieldErrors: answer.fieldErrors });
    if (answer?.status === "too-fast") return result({ status: "too-fast", values });
    if (answer?.status === "rate-limited") return result({ status: "rate-limited", values, retryAfterSeconds: answer.retryAfterSeconds });
    console.error("Error sending contact message:", error instanceof FunctionsFetchError ? "function unreachable" : error, answer ?? "");
  } catch (error) {
    console.error("Error sending contact message:", error);
  }
  return result({ status: "failed", values });
}

/**
 * The visitor's address as the reverse proxy in front of the site saw it: the last X-Forwarded-For
 * hop, the one that proxy appended (earlier hops are whatever the visitor sent). Undefined without one.
 */
export function clientAddress(request: Request): string | undefined {
  const hops = request.headers.get("x-forwarded-for")?.split(",").map((hop) => hop.trim()).filter(Boolean);
  return hops?.at(-1);
}

/** A UUID from the message, the visitor and the UTC day: a repeat of the same post is the same enquiry. */
export function derivedKey(message: ContactMessage, client: string | undefined, secret: string, now = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  const hex = createHash("sha256").update(JSON.stringify([secret, client ?? "", day, message])).digest("hex");
  // Shaped as an RFC 9562 version 8 (custom) UUID, which the contract accepts.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
