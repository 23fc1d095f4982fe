/**
 * Sends an enquiry from the browser with supabase-js `functions.invoke('send-contact-email')`.
 * supabase-js (~50 KB gzipped) is imported on demand: `preloadSupabase()` runs once the form has
 * hydrated, at the visitor's first pause (a second without a key or tap: ContactForm's warm-up), so
 * the first view never downloads it and evaluating it never delays a keystroke. The answer becomes a
 * FormOutcome in outcome.ts, as on the no-JavaScript path.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { ENQUIRY_HEADERS, FUNCTION_NAME, type ContactMessage } from "#shared/contact-message.ts";
import type { PublicEnv } from "~/config.types";
import { importWithRetry } from "./module-retry.client";
import { outcomeOfInvoke, type InvokeResult } from "./outcome";
import { SEND_TIME_LIMITS_MS } from "./send-time-limits";

let client: Promise<SupabaseClient> | undefined;

export function preloadSupabase(env: PublicEnv): Promise<SupabaseClient> {
  client ??= importWithRetry(() => import("@supabase/supabase-js")).then(({ createClient }) =>
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

/**
 * The outcome, and the error to log when it is a failure. `clientUnavailable`: supabase-js itself
 * could not be loaded (its file blocked, or gone after a deploy), so nothing was sent.
 */
export async function sendEnquiry(
  env: PublicEnv,
  message: ContactMessage,
  meta: SendMeta,
): Promise<InvokeResult & { error?: unknown; clientUnavailable?: boolean }> {
  let supabase: SupabaseClient;
  try {
    supabase = await preloadSupabase(env);
  } catch {
    // Once more: a download cut off on its way (the visitor left the page as it was fetched, then came
    // Back) is not a file that cannot load. (A preload that failed long before is tried anew here too:
    // each try makes the download again, module-retry.client.ts.)
    try {
      supabase = await preloadSupabase(env);
    } catch (error) {
      return { outcome: { status: "failed", values: message }, error, clientUnavailable: true };
    }
  }
  try {
    const { error } = await supabase.functions.invoke(FUNCTION_NAME, {
      body: message,
      // A function that hangs ends in the failure toast, not in "Sending..." for ever.
      timeout: SEND_TIME_LIMITS_MS.browser,
      headers: {
        [ENQUIRY_HEADERS.idempotencyKey]: meta.idempotencyKey,
        [ENQUIRY_HEADERS.fillMs]: String(Math.round(meta.fillMs)),
        // Only whether the honeypot was filled matters; its text could not travel in a header anyway.
        [ENQUIRY_HEADERS.trap]: meta.trap === "" ? "" : "1",
      },
    });
    return { ...(await outcomeOfInvoke(error, message)), error };
  } catch (error) {
    return { outcome: { status: "failed", values: message }, error };
  }
}
