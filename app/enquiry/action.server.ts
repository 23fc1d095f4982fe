/**
 * The no-JavaScript path of the booking form: reads the posted form (within a size and time limit,
 * UTF-8 only), validates it with the shared contract and calls the same send-contact-email function
 * from the server, with the same functions client the browser uses. The answer becomes a FormOutcome
 * in outcome.ts, as in the browser; each outcome is a page the visitor can act on. Nothing here throws.
 *
 * The page carries nothing per request (decision 012), so the idempotency key is derived here from the
 * message, the visitor's address and the day: the same post twice stores once, two visitors never
 * share an enquiry. The site vouches for the visitor's address to the function with the relay secret;
 * the address is the one the front door trusts (app/server/front-door.server.ts), never one the
 * visitor wrote.
 *
 * A success answers with a redirect to the result page (Post/Redirect/Get, decision 027), so Back,
 * Forward and Reload never post again; any other outcome is answered at once, every value kept.
 */
import { createHash } from "node:crypto";
import { json, redirect, type TypedResponse } from "@remix-run/node";
import { FunctionsClient } from "@supabase/functions-js";
import {
  CONTACT_FIELDS,
  emptyMessage,
  ENQUIRY_HEADERS,
  ENVELOPE_BYTES,
  FORM_META_FIELDS,
  FUNCTION_NAME,
  hasRequiredFields,
  MAX_MESSAGE_CODE_POINTS,
  parseContactMessage,
  RELAY_HEADERS,
  type ContactMessage,
} from "#shared/contact-message.ts";
import { isUtf8Type, readBody } from "#shared/read-body.ts";
import { CLIENT_ADDRESS_HEADER, CROSS_SITE_HEADER } from "~/server/front-door.server";
import { decodeFormBody } from "./form-body.server";
import { OUTCOME_HTTP_STATUS, outcomeOfInvoke, SENT_PAGE_TARGET, type FormOutcome } from "./outcome";
import { SEND_TIME_LIMITS_MS } from "./send-time-limits";

/**
 * The largest form body we read: the largest valid message, each code point up to 12 bytes once
 * percent-encoded (4 UTF-8 bytes, 3 characters each), and the form's own fields.
 */
export const MAX_FORM_BYTES = MAX_MESSAGE_CODE_POINTS * 12 + ENVELOPE_BYTES;

type Options = {
  supabaseUrl: string;
  anonKey: string;
  /** Shared with the function (ENQUIRY_RELAY_SECRET): vouches for the visitor's address. */
  relaySecret?: string;
  /** How long the visitor's browser may take to send the form's body (config: server.formBodyTimeoutMs). */
  bodyTimeoutMs: number;
  timeoutMs?: number;
};

export type ActionResult = { outcome: FormOutcome; httpStatus: number };

/** The route action's answer: the outcome's page, or the redirect to SENT_PAGE for a success. */
export async function answerEnquiryForm(request: Request, options: Options): Promise<TypedResponse<FormOutcome>> {
  const { outcome, httpStatus } = await submitEnquiryForm(request, options);
  // A redirect is not stored by caches without being told it may be; no-store says it outright.
  if (outcome.status === "ok") return redirect(SENT_PAGE_TARGET, { status: httpStatus, headers: { "Cache-Control": "no-store" } });
  return json(outcome, { status: httpStatus });
}

const EMPTY: ContactMessage = emptyMessage();
const result = (outcome: FormOutcome, httpStatus = OUTCOME_HTTP_STATUS[outcome.status]): ActionResult => ({ outcome, httpStatus });
const refused = (httpStatus: number, values: ContactMessage = EMPTY) => result({ status: "refused", values }, httpStatus);

export async function submitEnquiryForm(request: Request, options: Options): Promise<ActionResult> {
  if (request.method !== "POST") return refused(405);
  // Another site's page posting here (a cross-site form, a sandboxed frame): the front door says so.
  if (request.headers.get(CROSS_SITE_HEADER) === "1") return refused(403);
  if (!isUtf8Type(request.headers.get("content-type") ?? "", "application/x-www-form-urlencoded")) return refused(415);
  const body = await readBody(request, MAX_FORM_BYTES, options.bodyTimeoutMs);
  if (body === "too-large") return refused(413);
  if (body === "too-slow") return refused(408);
  if (body === "unreadable") return refused(400);
  if (body.byteLength === 0) return refused(400);

  const form = decodeFormBody(body);
  // The honeypot, whatever it holds (any bytes): the silent success a bot gets, storing nothing.
  if (form.filled(FORM_META_FIELDS.trap)) return result({ status: "ok" });
  const decoded = Object.fromEntries(CONTACT_FIELDS.map((field) => [field, form.text(field)]));
  // A body that is not UTF-8 is not what the page's form sends.
  if (Object.values(decoded).some((value) => value === null)) return refused(400);
  const values = decoded as ContactMessage;

  if (!hasRequiredFields(values)) return result({ status: "missing", values });
  const parsed = parseContactMessage(values);
  if (!parsed.ok) return result({ status: "invalid", values, fieldErrors: parsed.fieldErrors });

  if (!options.relaySecret) {
    // Production refuses to start without it (config.server.ts); a local run without it cannot send.
    console.error("Error sending contact message: ENQUIRY_RELAY_SECRET is not set, the no-JavaScript form cannot send");
    return result({ status: "failed", values });
  }
  const client = request.headers.get(CLIENT_ADDRESS_HEADER) || undefined;
  const headers: Record<string, string> = {
    [ENQUIRY_HEADERS.idempotencyKey]: derivedKey(parsed.message, client, options.relaySecret),
    [RELAY_HEADERS.secret]: options.relaySecret,
  };
  if (client) headers[RELAY_HEADERS.client] = client;

  const functions = new FunctionsClient(`${options.supabaseUrl}/functions/v1`, {
    headers: { apikey: options.anonKey, Authorization: `Bearer ${options.anonKey}` },
  });
  try {
    const { error } = await functions.invoke(FUNCTION_NAME, {
      body: parsed.message,
      headers,
      signal: AbortSignal.timeout(options.timeoutMs ?? SEND_TIME_LIMITS_MS.noJavaScript),
    });
    const { outcome, answer, httpStatus } = await outcomeOfInvoke(error, values);
    if (outcome.status === "failed") {
      const cause =
        answer?.status === "error" && answer.code === "relay-refused"
          ? "the function does not recognise this site's ENQUIRY_RELAY_SECRET: set the same value on the site and as the function's secret"
          : httpStatus
            ? `the function answered ${httpStatus}`
            : "the function could not be reached";
      console.error(`Error sending contact message: ${cause}`, answer ?? error);
    }
    return result(outcome);
  } catch (error) {
    console.error("Error sending contact message:", error);
    return result({ status: "failed", values });
  }
}

/** A UUID from the message, the visitor and the UTC day: a repeat of the same post is the same enquiry. */
export function derivedKey(message: ContactMessage, client: string | undefined, secret: string, now = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  const hex = createHash("sha256")
    .update(JSON.stringify([secret, client ?? "", day, message]))
    .digest("hex");
  // Shaped as an RFC 9562 version 8 (custom) UUID, which the contract accepts.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
