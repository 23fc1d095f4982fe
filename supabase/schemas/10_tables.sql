-- Tables and their indexes, with the one row the redelivery state starts with.
-- The limits an owner sets (RATE_LIMIT_*, ENQUIRIES_PER_DAY_MAX, HELD_ENQUIRIES_MAX,
-- CONFIRMATIONS_PER_SENDER_PER_DAY, retention, backoff) come from
-- the function's environment (send-contact-email/config.ts) as arguments; the rest is private.rules().


-- Booking enquiries. The field limits are the contract's (_shared/contact-message.ts, FIELD_LIMITS),
-- counted as char_length counts (code points); tests/function/schema.test.ts proves each is the same.
create table public.contact_enquiries (
  id uuid primary key default gen_random_uuid(),
  -- Sent by the client per submission attempt; a retry with the same key is the same enquiry.
  idempotency_key uuid not null unique,
  name text not null check (char_length(name) between 1 and 100),
  -- RFC 5321's longest address (MAX_EMAIL_LENGTH), in the stored form: NFC, the domain in ASCII.
  email text not null check (char_length(email) between 3 and 254),
  -- The address normalised to the mailbox it reaches (send-contact-email/mailbox.ts): one
  -- confirmation per mailbox, whatever the spelling.
  mailbox text not null,
  project_title text not null check (char_length(project_title) between 1 and 200),
  project_details text not null default '' check (char_length(project_details) <= 5000),
  -- A salted SHA-256 of the sender (an IPv4 address or an IPv6 /64), never the address itself;
  -- '' when no trustworthy address came with the enquiry.
  client_hash text not null,
  -- Stored past the global rate: its mails waited for the digest (decision 013).
  held boolean not null default false,
  created_at timestamptz not null default now()
);
create index contact_enquiries_mailbox_recent on public.contact_enquiries (mailbox, created_at);
create index contact_enquiries_client_recent on public.contact_enquiries (client_hash, created_at);
create index contact_enquiries_created on public.contact_enquiries (created_at);

-- The two mails of each enquiry. Every delivery is due (pending), being sent (sending, with a claim
-- that expires), sent, dead (given up, with the reason), held (waiting for the digest or for a flood
-- to end) or suppressed (deliberately not sent, with the reason).
create table public.contact_deliveries (
  enquiry_id uuid not null references public.contact_enquiries (id) on delete cascade,
  kind text not null check (kind in ('studio', 'confirmation')),
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'dead', 'held', 'suppressed')),
  attempts integer not null default 0,
  last_error text,
  -- While 'sending' (or a held studio mail claimed for a digest), the claim expires at this time.
  locked_until timestamptz,
  next_attempt_at timestamptz not null default now(),
  sent_at timestamptz,
  dead_at timestamptz,
  -- The provider's message id, so a failure it reports later (a webhook) finds its delivery.
  provider_id text,
  primary key (enquiry_id, kind)
);
create index contact_deliveries_due on public.contact_deliveries (next_attempt_at) where status in ('pending', 'sending');
create index contact_deliveries_held on public.contact_deliveries (kind) where status = 'held';
create index contact_deliveries_provider_id on public.contact_deliveries (provider_id) where provider_id is not null;

-- Hits per bucket and fixed window; private.rate_estimate turns two windows into a sliding count.
-- Buckets: 'client:<hash>' (a sender's enquiries), 'global' (senders per window), 'stored' (enquiries
-- stored, for the daily budget).
create table public.contact_rate_limits (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (bucket, window_start)
);

-- Addresses that bounced, complained or were refused for good, exactly as the provider reported them
-- (as its own suppression list keeps them): they get no confirmation. Not their mailbox: a bounce of
-- one alias (a +tag, dots) says nothing of the others (docs/decisions/031). The studio's own
-- notification is never suppressed.
create table private.undeliverable_addresses (
  address text primary key,
  reason text not null,
  source text not null check (source in ('bounced', 'complained', 'failed', 'suppressed', 'refused')),
  recorded_at timestamptz not null default now(),
  -- Recorded from a mail to the studio itself: only such a row says STUDIO_INBOX is undeliverable
  -- (/health), never a visitor's address that resembles it.
  studio boolean not null default false
);

-- One row: the redelivery lease (one run at a time, through the transaction pooler too, unlike session
-- advisory locks) and the last run, which /health reports.
create table private.redelivery_state (
  id boolean primary key default true check (id),
  lease_holder uuid,
  lease_until timestamptz,
  last_run_at timestamptz,
  last_report jsonb
);
insert into private.redelivery_state (id) values (true);

-- At most one row: the provider's latest refusal of the studio's own account (a wrong key, a domain
-- not verified). /health reports it until a mail is sent again, which removes it.
create table private.mail_account_refusal (
  id boolean primary key default true check (id),
  refused_at timestamptz not null,
  reason text not null
);

-- Resend's webhook events already acted on, by their svix-id (docs/decisions/023): Svix sends an event
-- again with the same id until it gets a 2xx (and a replay is signed just as well), so an event is
-- acted on once. Only signed requests reach this table, so no anonymous caller can add a row; an id is
-- kept 7 days (Svix retries an event for about 28 hours) and pruned as new ones arrive
-- (store.ts, recordReportedFailureOnce).
create table private.processed_webhook_events (
  event_id text primary key check (char_length(event_id) between 1 and 200),
  processed_at timestamptz not null default now()
);
create index processed_webhook_events_processed_at on private.processed_webhook_events (processed_at);
