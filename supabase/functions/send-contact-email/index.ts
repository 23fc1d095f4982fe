// send-contact-email: stores a booking enquiry in Postgres, then mails the studio and the visitor.
// Wiring only; the behaviour is in handler.ts. Environment: see config.ts and README.md.
import { loadConfig } from "./config.ts";
import { createHandler } from "./handler.ts";
import { createMailer } from "./mailer.ts";
import { createStore } from "./store.ts";

const config = loadConfig(Deno.env);
const store = createStore(config.databaseUrl, { max: config.dbPoolMax });
const mailer = createMailer(config.mail, config.mailFrom, config.mailTimeoutMs);

// Supabase's edge runtime keeps a request's background work alive through EdgeRuntime.waitUntil;
// plain Deno (local serving) keeps running anyway.
declare const EdgeRuntime: { waitUntil(work: Promise<unknown>): void } | undefined;
const waitUntil = typeof EdgeRuntime !== "undefined" ? (work: Promise<unknown>) => EdgeRuntime.waitUntil(work) : undefined;

Deno.serve(createHandler({ config, store, mailer, waitUntil }));

/* To try it locally (`npm run stack` serves it on port 54321):

  curl -i http://127.0.0.1:54321/functions/v1/send-contact-email \
    -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $(uuidgen)" -H 'X-Form-Fill-Ms: 5000' \
    -d '{"name":"Ada","email":"ada@example.com","projectTitle":"Demo EP","projectDetails":"3 songs"}'
*/
