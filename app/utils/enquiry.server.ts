/**
 * The no-JavaScript path of the booking form: validates the posted form with the shared contract
 * and calls the same send-contact-email function from the server, with the same library family
 * (@supabase/functions-js) the browser uses.
 */
import { FunctionsClient, FunctionsHttpError } from "@supabase/functions-js";
import type { FormOutcome } from "~/components/ContactForm";
import {
  CONTACT_FIELDS,
  ENQUIRY_HEADERS,
  FORM_META_FIELDS,
  hasRequiredFields,
  isIdempotencyKey,
  parseContactMessage,
  RELAY_HEADERS,
  type ContactMessage,
  type EnquiryResult,
} from "../../supabase/functions/_shared/contact-message.ts";

type Options = { supabaseUrl: string; anonKey: string; relaySecret?: string; timeoutMs?: number };

export async function submitEnquiryForm(request: Request, options: Options): Promise<FormOutcome> {
  const form = await request.formData();
  const values = Object.fromEntries(
    CONTACT_FIELDS.map((field) => [field, String(form.get(field) ?? "")]),
  ) as ContactMessage;

  if (!hasRequiredFields(values)) return { status: "missing", values };
  const parsed = parseContactMessage(values);
  if (!parsed.ok) return { status: "invalid", values, fieldErrors: parsed.fieldErrors };

  const key = form.get(FORM_META_FIELDS.idempotencyKey);
  const renderedAt = Number(form.get(FORM_META_FIELDS.renderedAt));
  const headers: Record<string, string> = {
    [ENQUIRY_HEADERS.idempotencyKey]: isIdempotencyKey(key) ? key : crypto.randomUUID(),
    [ENQUIRY_HEADERS.fillMs]: String(Number.isFinite(renderedAt) ? Math.max(0, Date.now() - renderedAt) : 0),
    [ENQUIRY_HEADERS.trap]: String(form.get(FORM_META_FIELDS.trap) ?? ""),
  };
  if (options.relaySecret) {
    headers[RELAY_HEADERS.secret] = options.relaySecret;
    headers[RELAY_HEADERS.client] = clientAddress(request);
  }

  const functions = new FunctionsClient(`${options.supabaseUrl}/functions/v1`, {
    headers: { apikey: options.anonKey, Authorization: `Bearer ${options.anonKey}` },
  });
  try {
    const { error } = await functions.invoke<EnquiryResult>("send-contact-email", {
      body: parsed.message,
      headers,
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    if (!error) return { status: "ok" };
    if (error instanceof FunctionsHttpError) {
      const result = (await (error.context as Response).json().catch(() => undefined)) as EnquiryResult | undefined;
      if (result?.status === "invalid") return { status: "invalid", values, fieldErrors: result.fieldErrors };
    }
    console.error("Error sending contact message:", error);
  } catch (error) {
    console.error("Error sending contact message:", error);
  }
  return { status: "failed", values };
}

/** The first X-Forwarded-For hop, as set by the reverse proxy in front of the site. */
function clientAddress(request: Request): string {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}
