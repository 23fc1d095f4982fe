-- Resend's webhook events already acted on, by their svix-id (docs/decisions/023): Svix sends an event
-- again with the same id until it gets a 2xx (and a replay is signed just as well), so an event is
-- acted on once. Only signed requests reach this table, so no anonymous caller can add a row; an id is
-- kept 7 days (Svix retries an event for about 28 hours) and pruned as new ones arrive
-- (store.ts, recordReportedFailureOnce). Self-contained: it runs before or after the baseline alike.
create schema if not exists private;
revoke all on schema private from public;

create table private.processed_webhook_events (
  event_id text primary key check (char_length(event_id) between 1 and 200),
  processed_at timestamptz not null default now()
);
create index processed_webhook_events_processed_at on private.processed_webhook_events (processed_at);
revoke all on private.processed_webhook_events from public, anon, authenticated;
