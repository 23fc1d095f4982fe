// send-contact-email: stores a booking enquiry in Postgres, then mails the studio and the visitor.
// Wiring only; the behaviour is in handler.ts. Environment: see config.ts and README.md.
import { loadConfig } from "./config.ts";
import { createFaultAnswer, createHandler } from "./handler.ts";
import { defaultLog } from "./log.ts";
import { createMailer } from "./mailer.ts";
import { createStore } from "./store.ts";

// A function cannot refuse to start: each configuration problem is logged at error level here, at cold
// start, and reported by /health, while enquiries are still stored wherever that can work.
const { config, problems, warnings } = loadConfig(Deno.env);
for (const { variable, problem } of problems) {
  defaultLog({ level: "error", event: "configuration-problem", variable, problem, production: config.production });
}
// Deliverability warnings (MAIL_FROM the same as STUDIO_INBOX): mail still goes, less surely.
for (const { variable, problem } of warnings) {
  defaultLog({ level: "warn", event: "configuration-warning", variable, problem, production: config.production });
}
const store = config.databaseUrl
  ? createStore(config.databaseUrl, { max: config.dbPoolMax, prepare: config.databaseConnection === "direct" })
  : undefined;
const mailer = createMailer(config.mail, config.mailFrom, config.mailTimeoutMs);

// Supabase's edge runtime keeps a request's background work alive through EdgeRuntime.waitUntil;
// plain Deno (local serving) keeps running anyway.
declare const EdgeRuntime: { waitUntil(work: Promise<unknown>): void } | undefined;
const waitUntil = typeof EdgeRuntime !== "undefined" ? (work: Promise<unknown>) => EdgeRuntime.waitUntil(work) : undefined;

const handler = createHandler({ config, problems, warnings, store, mailer, waitUntil });
// Served with no platform in front (the local stack): the address header its gateway sets is missing,
// so the caller's own socket address stands in for it, and a visitor's browser calls are one sender,
// as on the platform (the same sender as the site's relay names for their no-JS posts).
const header = config.clientAddress.header;
// What escapes the handler (it answers its own faults) is answered with the usual headers, in one line.
Deno.serve(
  { onError: createFaultAnswer({ config }) },
  config.production
    ? handler
    : (request, info) => {
        if (request.headers.has(header) || info.remoteAddr.transport !== "tcp") return handler(request);
        const headers = new Headers(request.headers);
        headers.set(header, info.remoteAddr.hostname);
        return handler(new Request(request, { headers }));
      },
);

/* To try it locally (`npm run stack` serves it on port 54321):

  curl -i http://127.0.0.1:54321/functions/v1/send-contact-email \
    -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $(uuidgen)" -H 'X-Form-Fill-Ms: 5000' \
    -d '{"name":"Ada","email":"ada@example.com","projectTitle":"Demo EP","projectDetails":"3 songs"}'

  curl -s http://127.0.0.1:54321/functions/v1/send-contact-email/health \
    -H 'x-redelivery-secret: local-redelivery-secret-not-for-production'
*/
