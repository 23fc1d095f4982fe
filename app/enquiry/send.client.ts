/**
 * Sends an enquiry from the browser with supabase-js `functions.invoke('send-contact-email')`.
 * supabase-js (~50 KB gzipped) is imported on demand: `preloadSupabase()` runs when the visitor
 * first focuses or types in the form, so the first view never downloads it.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import {
  ENQUIRY_HEADERS,
  type ContactMessage,
  type EnquiryResult,
  type FieldErrors,
} from "../../supabase/functions/_shared/contact-message.ts";

import type { PublicEnv } from "~/config";

export type SendOutcome =
  | { status: "ok" }
  | { status: "invalid"; fieldErrors: FieldErrors }
  | { status: "failed"; error: unknown };

export const FUNCTION_NAME = "send-contact-email";

let client: Promise<SupabaseClient> | undefined;

export function preloadSupabase(env: PublicEnv): Promise<SupabaseClient> {
  client ??= import("@supabase/supabase-js").then(({ createClient }) =>
    createClient(env.supabaseUrl, env.supabaseAnonKey, {
      // Spec point 6: the session lives in localStorage and refreshes itself.
      auth: { storage: window.localStorage, persistSession: true, autoRefreshToken: true },
    }),
  );
  // A failed download (offline) must not stick: the next attempt tries again.
  client.catch(() => (client = undefined));
  return client;
}

export type SendMeta = { idempotencyKey: string; fillMs: number; trap: string };

export async function sendEnquiry(env: PublicEnv, message: ContactMessage, meta: SendMeta): Promise<SendOutcome> {
  try {
    const supabase = await preloadSupabase(env);
    const { error } = await supabase.functions.invoke<EnquiryResult>(FUNCTION_NAME, {
      body: message,
      headers: {
        [ENQUIRY_HEADERS.idempotencyKey]: meta.idempotencyKey,
        [ENQUIRY_HEADERS.fillMs]: String(Math.round(meta.fillMs)),
        [ENQUIRY_HEADERS.trap]: meta.trap,
      },
    });
    if (!error) return { status: "ok" };
    const result = await readResult(error);
    if (result?.status === "invalid") return { status: "invalid", fieldErrors: result.fieldErrors };
    return { status: "failed", error };
  } catch (error) {
    return { status: "failed", error };
  }
}

/** FunctionsHttpError carries the Response in `context`; other errors carry none. */
async function readResult(error: unknown): Promise<EnquiryResult | undefined> {
  const context = (error as { context?: unknown }).context;
  if (!(context instanceof Response)) return undefined;
  try {
    return (await context.clone().json()) as EnquiryResult;
  } catch {
    return undefined;
  }
}
