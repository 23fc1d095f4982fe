-- The schema of send-contact-email as it is, in one file that reads top to bottom (docs/decisions/021):
-- tables, views, grants and row-level security; the rules that are not configuration, once; each SQL
-- function once; the redelivery schedule. It replaces the nine migrations written before anything
-- was deployed. A later change is a new migration after this one (decision 021 says how).
-- History: the current text of every object here is in supabase/schemas/, which is where to read it.
--
-- Only the function (with the server-side database URL) touches any of this: RLS is on with no
-- policies, anon and authenticated have no grants, and the private schema is closed to them.
-- The limits an owner sets (RATE_LIMIT_*, ENQUIRIES_PER_DAY_MAX, HELD_ENQUIRIES_MAX,
-- CONFIRMATIONS_PER_SENDER_PER_DAY, PAUSED_CONFIRMATION_MAX_AGE_SECONDS, retention, backoff) come from
-- the function's environment (send-contact-email/config.ts) as arguments; the rest is private.rules().

create schema if not exists private;
revoke all on schema private from public;

-- ---------------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------------

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

-- Mailboxes (normalised, as contact_enquiries.mailbox) that bounced, complained or were refused for
-- good: they get no confirmation. The studio's own notification is never suppressed.
create table private.undeliverable_addresses (
  mailbox text primary key,
  reason text not null,
  source text not null check (source in ('bounced', 'complained', 'failed', 'suppressed', 'refused')),
  recorded_at timestamptz not null default now()
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

-- ---------------------------------------------------------------------------------------------------
-- Views for the owner (SQL editor; the README points here)
-- ---------------------------------------------------------------------------------------------------

-- Every delivery that will not be tried again, with what it was about.
create view private.undelivered_mail as
  select d.enquiry_id, d.kind, d.attempts, d.last_error as reason, d.dead_at,
         e.created_at as enquiry_created_at, e.name, e.email, e.project_title
  from public.contact_deliveries d
  join public.contact_enquiries e on e.id = d.enquiry_id
  where d.status = 'dead'
  order by d.dead_at desc;

-- Replaced: its current text is in supabase/schemas/30_views.sql (shared counters in shards, decision 022).
-- Traffic at a glance: the global rate, holds, suppressed confirmations.
create view private.enquiry_traffic as
  select
    (select count(*) from public.contact_enquiries where created_at > now() - interval '1 hour') as enquiries_last_hour,
    (select count(*) from public.contact_enquiries where created_at > now() - interval '1 day') as enquiries_last_day,
    (select count(*) from public.contact_enquiries where held and created_at > now() - interval '1 day') as held_last_day,
    (select count(*) from public.contact_deliveries where kind = 'studio' and status = 'held') as studio_mails_waiting_for_digest,
    (select count(*) from public.contact_deliveries where kind = 'confirmation' and status = 'held') as confirmations_paused,
    (select count(*) from public.contact_deliveries d join public.contact_enquiries e on e.id = d.enquiry_id
      where d.status = 'suppressed' and e.created_at > now() - interval '1 day') as confirmations_suppressed_last_day,
    (select coalesce(sum(hits), 0) from public.contact_rate_limits where bucket = 'global' and window_start > now() - interval '1 hour') as global_senders_last_hour;

-- Rate-limit windows of the last day, per sender only as a salted hash.
create view private.rate_limit_windows as
  select bucket, window_start, hits from public.contact_rate_limits
  where window_start > now() - interval '1 day'
  order by window_start desc, hits desc;

create view private.undeliverable as
  select mailbox, source, reason, recorded_at from private.undeliverable_addresses order by recorded_at desc;

-- ---------------------------------------------------------------------------------------------------
-- Grants and row-level security
-- ---------------------------------------------------------------------------------------------------

alter table public.contact_enquiries enable row level security;
alter table public.contact_deliveries enable row level security;
alter table public.contact_rate_limits enable row level security;
-- Supabase grants new public tables to anon and authenticated by default; take that back.
revoke all on public.contact_enquiries, public.contact_deliveries, public.contact_rate_limits from anon, authenticated;
revoke all on private.undeliverable_addresses, private.redelivery_state, private.mail_account_refusal from public, anon, authenticated;
revoke all on private.undelivered_mail, private.enquiry_traffic, private.rate_limit_windows, private.undeliverable
  from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The rules that are not configuration, in one place
-- ---------------------------------------------------------------------------------------------------

-- Named constants the functions below read (the limits an owner sets are their arguments instead).
create function private.rules(
  -- A confirmation goes to one mailbox at most once in this period (decision 017).
  out confirmation_per_mailbox interval,
  -- The period of the daily budgets: enquiries stored, confirmations per sender, held per sender.
  out budget_period interval,
  -- The same message (mailbox, name, title, details) within this period is the same enquiry.
  out same_message_within interval,
  -- Retry-After when the enquiries of the day are spent, when the held budget is spent (the next
  -- digests make room), and when one sender's held enquiries of the day are spent.
  out busy_day_retry_after integer,
  out busy_held_retry_after integer,
  out sender_held_retry_after integer,
  -- Rate rows are kept this long past their window start (the longest window is a day, and the
  -- sliding count reads the window before the current one).
  out rate_rows_kept interval,
  -- The longest error text kept with a delivery, a refusal or an undeliverable address.
  out error_text_max integer
)
language sql
immutable
as $$
  select interval '1 hour', interval '1 day', interval '1 day', 3600, 600, 3600, interval '2 days', 500;
$$;

-- An error text as it is kept: at most rules().error_text_max characters.
create function private.error_text(p_text text)
returns text
language sql
immutable
as $$
  select left(p_text, (select error_text_max from private.rules()));
$$;

-- ---------------------------------------------------------------------------------------------------
-- Rate counting: fixed windows, read as a sliding window
-- ---------------------------------------------------------------------------------------------------

-- The start of the fixed window of length p_window that holds now (windows are aligned to the epoch).
create function private.window_start(p_window interval)
returns timestamptz
language sql
stable
as $$
  select to_timestamp(floor(extract(epoch from now()) / extract(epoch from p_window)) * extract(epoch from p_window));
$$;

-- The sliding count: this window's hits plus the previous window's, weighted by how much of it still
-- lies within one window of now. With fixed windows alone a client could send its limit just before a
-- boundary and again just after; this is the usual sliding-window counter, written once.
create function private.sliding_count(p_current integer, p_previous integer, p_start timestamptz, p_window interval)
returns double precision
language sql
stable
as $$
  select p_current + p_previous * (1 - extract(epoch from now() - p_start) / extract(epoch from p_window));
$$;

-- Replaced: its current text is in supabase/schemas/20_functions.sql (shared counters in shards, decision 022).
-- A bucket's sliding count, without counting a hit.
create function private.rate_estimate(p_bucket text, p_window interval)
returns double precision
language plpgsql
stable
as $$
declare
  v_start timestamptz := private.window_start(p_window);
  v_current integer;
  v_previous integer;
begin
  select coalesce(sum(r.hits) filter (where r.window_start = v_start), 0), coalesce(sum(r.hits) filter (where r.window_start < v_start), 0)
  into v_current, v_previous
  from public.contact_rate_limits r where r.bucket = p_bucket and r.window_start in (v_start, v_start - p_window);
  return private.sliding_count(v_current, v_previous, v_start, p_window);
end;
$$;

-- Counts one hit of a bucket in the current window. Returns this window's hits, the sliding count
-- with the hit, and the seconds until this window ends (when the previous window's share has gone).
-- The bucket's row stays locked until the caller's transaction ends: concurrent hits count one by one.
create function private.count_hit(p_bucket text, p_window interval, out hits integer, out estimate double precision, out seconds_left integer)
language plpgsql
as $$
declare
  v_start timestamptz := private.window_start(p_window);
  v_previous integer;
begin
  insert into public.contact_rate_limits as r (bucket, window_start, hits)
  values (p_bucket, v_start, 1)
  on conflict (bucket, window_start) do update set hits = r.hits + 1
  returning r.hits into hits;
  select r.hits into v_previous from public.contact_rate_limits r where r.bucket = p_bucket and r.window_start = v_start - p_window;
  estimate := private.sliding_count(hits, coalesce(v_previous, 0), v_start, p_window);
  seconds_left := greatest(1, ceil(extract(epoch from v_start + p_window - now())))::integer;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Storing an enquiry
-- ---------------------------------------------------------------------------------------------------

-- Replaced: its current text is in supabase/schemas/20_functions.sql (the enquiry as a row, decision 022).
-- The first enquiry within rules().same_message_within with this message, if any. The page carries
-- no per-visitor key (decision 012), so the same message can come under two keys (the no-JavaScript
-- post still on its way when Send is pressed again, a reload, a second tab): it is one enquiry.
create function private.same_message(p_mailbox text, p_name text, p_title text, p_details text)
returns uuid
language sql
stable
as $$
  select e.id from public.contact_enquiries e
  where e.mailbox = p_mailbox and e.created_at > now() - (select same_message_within from private.rules())
    and (e.name, e.project_title, e.project_details) = (p_name, p_title, p_details)
  order by e.created_at limit 1;
$$;

-- Replaced: its current text is in supabase/schemas/20_functions.sql (the enquiry as a row, decision 022).
-- Stores an enquiry with its two deliveries, in one transaction, within the limits (decisions 013, 017).
-- outcome:
--   'stored'       stored; its mails are due
--   'held'         stored; past the global rate its mails wait (a digest for the studio, the
--                  confirmation paused until the flood ends)
--   'duplicate'    the same key and message again, or the same message under another key: the first
--                  enquiry's id, no new mail, no rate-limit hit
--   'conflict'     the same key with another message: the first stays
--   'rate-limited' the sender's own limit (sliding window), or their held enquiries of the day
--   'busy'         a budget is spent: the enquiries of the day, or the enquiries held at once
-- p_client_hash '' means no trustworthy address: no per-sender limit, and the enquiry counts against
-- the global rate as a sender of its own. The global rate counts senders, not enquiries: a sender
-- counts once per window, so a trickle from a few senders within their own limits never holds the site.
-- Every count is bounded: budgets are sliding counters, other counts stop at their limit.
-- p_claim_lock: the caller sends the due mails at once, so they are stored already claimed for it
-- ('sending' for p_claim_lock, the attempt counted, as claim_deliveries would; a claim that expires
-- is taken again by a redelivery run). claimed lists their kinds. Null (no mail transport can work):
-- they are stored due, and no attempt is spent.
create function private.submit_enquiry(
  p_key uuid, p_name text, p_email text, p_mailbox text, p_title text, p_details text, p_client_hash text,
  p_per_client integer, p_client_window interval, p_global integer, p_global_window interval,
  p_enquiries_per_day integer, p_held_max integer, p_confirmations_per_sender integer, p_claim_lock interval
)
returns table (outcome text, enquiry_id uuid, retry_after integer, claimed text[])
language plpgsql
as $$
declare
  v_rules record := private.rules();
  v_existing public.contact_enquiries;
  v_id uuid;
  v_client_hits integer := 0;
  v_client_estimate double precision := 0;
  v_client_retry integer;
  v_held boolean;
  v_confirmation text;
  v_reason text;
  v_claimed text[];
begin
  select * into v_existing from public.contact_enquiries e where e.idempotency_key = p_key;
  if found then
    return query select case when (v_existing.name, v_existing.email, v_existing.project_title, v_existing.project_details)
        = (p_name, p_email, p_title, p_details) then 'duplicate' else 'conflict' end, v_existing.id, null::integer, null::text[];
    return;
  end if;

  -- Enquiries to the same mailbox, and from the same sender, are decided one at a time: two paths
  -- sending the same message at once store it once, and confirmations are counted exactly.
  perform pg_advisory_xact_lock(hashtext('confirmation:' || p_mailbox));
  if p_client_hash <> '' then perform pg_advisory_xact_lock(hashtext('sender:' || p_client_hash)); end if;
  -- The same message under another key (the other path, a reload, a second tab): the same enquiry,
  -- before any limit counts it.
  v_id := private.same_message(p_mailbox, p_name, p_title, p_details);
  if v_id is not null then
    return query select 'duplicate'::text, v_id, null::integer, null::text[];
    return;
  end if;

  -- The sender's own limit, then the global rate, counted once per sender and window.
  if p_client_hash <> '' then
    select c.hits, c.estimate, c.seconds_left into v_client_hits, v_client_estimate, v_client_retry
    from private.count_hit('client:' || p_client_hash, p_client_window) c;
    if v_client_estimate > p_per_client then
      return query select 'rate-limited'::text, null::uuid, v_client_retry, null::text[];
      return;
    end if;
  end if;
  if p_client_hash = '' or v_client_hits = 1 then
    v_held := (private.count_hit('global', p_global_window)).estimate > p_global;
  else
    v_held := private.rate_estimate('global', p_global_window) > p_global;
  end if;

  -- Budgets: the enquiries stored in a day, those held at once, and one sender's held in a day.
  if private.rate_estimate('stored', v_rules.budget_period) >= p_enquiries_per_day then
    return query select 'busy'::text, null::uuid, v_rules.busy_day_retry_after, null::text[];
    return;
  end if;
  if v_held then
    if (select count(*) from (select from public.contact_deliveries d
        where d.kind = 'studio' and d.status = 'held' limit p_held_max) held) >= p_held_max then
      return query select 'busy'::text, null::uuid, v_rules.busy_held_retry_after, null::text[];
      return;
    end if;
    if p_client_hash <> '' and (select count(*) from (select from public.contact_enquiries e
        where e.client_hash = p_client_hash and e.held and e.created_at > now() - v_rules.budget_period limit p_per_client) held) >= p_per_client then
      return query select 'rate-limited'::text, null::uuid, v_rules.sender_held_retry_after, null::text[];
      return;
    end if;
  end if;

  insert into public.contact_enquiries (idempotency_key, name, email, mailbox, project_title, project_details, client_hash, held)
  values (p_key, p_name, p_email, p_mailbox, p_title, p_details, p_client_hash, v_held)
  on conflict (idempotency_key) do nothing
  returning id into v_id;
  if v_id is null then
    -- A concurrent request with the same key won the race.
    select * into v_existing from public.contact_enquiries e where e.idempotency_key = p_key;
    return query select case when (v_existing.name, v_existing.email, v_existing.project_title, v_existing.project_details)
        = (p_name, p_email, p_title, p_details) then 'duplicate' else 'conflict' end, v_existing.id, null::integer, null::text[];
    return;
  end if;

  -- The confirmation: never to an undeliverable mailbox, one per mailbox per rules() period, and at
  -- most p_confirmations_per_sender a day per sender. The studio's notification is never suppressed.
  v_reason := case
    when exists (select from private.undeliverable_addresses u where u.mailbox = p_mailbox)
      then 'suppressed: the address bounced, complained or was refused before'
    when exists (
      select from public.contact_enquiries e join public.contact_deliveries d on d.enquiry_id = e.id and d.kind = 'confirmation'
      where e.mailbox = p_mailbox and e.id <> v_id and e.created_at > now() - v_rules.confirmation_per_mailbox
        and d.status in ('pending', 'sending', 'sent', 'held'))
      then 'suppressed: one confirmation per mailbox per hour'
    when p_client_hash <> '' and (select count(*) from (
        select from public.contact_enquiries e join public.contact_deliveries d on d.enquiry_id = e.id and d.kind = 'confirmation'
        where e.client_hash = p_client_hash and e.id <> v_id and e.created_at > now() - v_rules.budget_period
          and d.status in ('pending', 'sending', 'sent', 'held')
        limit p_confirmations_per_sender) sent) >= p_confirmations_per_sender
      then 'suppressed: the sender''s confirmations for the day are used up'
  end;
  v_confirmation := case when v_reason is not null then 'suppressed' when v_held then 'held' else 'pending' end;
  with stored as (
    insert into public.contact_deliveries (enquiry_id, kind, status, last_error, attempts, locked_until)
    select v_id, m.kind, case when m.status = 'pending' and p_claim_lock is not null then 'sending' else m.status end, m.reason,
           case when m.status = 'pending' and p_claim_lock is not null then 1 else 0 end,
           case when m.status = 'pending' and p_claim_lock is not null then now() + p_claim_lock end
    from (values ('studio', case when v_held then 'held' else 'pending' end, null), ('confirmation', v_confirmation, v_reason)) m (kind, status, reason)
    returning kind, status
  )
  select array_agg(s.kind) filter (where s.status = 'sending') into v_claimed from stored s;
  -- Counted last: the day's counter row is then locked only until this transaction commits.
  perform private.count_hit('stored', v_rules.budget_period);
  return query select case when v_held then 'held' else 'stored' end, v_id, null::integer, v_claimed;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Delivering mail (docs/decisions/003, 014)
-- ---------------------------------------------------------------------------------------------------

-- Replaced: its current text is in supabase/schemas/20_functions.sql (the enquiry as a row, decision 022).
-- Claims up to p_limit due deliveries, of one enquiry (p_enquiry) or of all (null, oldest due first):
-- pending ones whose next attempt has come, and 'sending' ones whose claim expired (the process died
-- mid-send). The attempt is counted here, when it is really about to be made. SKIP LOCKED: concurrent
-- callers (a request and a redelivery run) never claim the same row. Planned for each call's own
-- arguments, so one enquiry's claim reads its two rows by primary key.
create function private.claim_deliveries(p_enquiry uuid, p_limit integer, p_max_attempts integer, p_lock interval)
returns table (
  enquiry_id uuid, kind text, name text, email text, mailbox text, project_title text, project_details text, created_at timestamptz
)
language plpgsql
set plan_cache_mode = force_custom_plan
as $$
begin
  return query
  with claimable as (
    select d.enquiry_id, d.kind
    from public.contact_deliveries d
    where (p_enquiry is null or d.enquiry_id = p_enquiry)
      and d.attempts < p_max_attempts
      and ((d.status = 'pending' and d.next_attempt_at <= now()) or (d.status = 'sending' and d.locked_until < now()))
    order by d.next_attempt_at
    limit p_limit
    for update skip locked
  ), claimed as (
    update public.contact_deliveries d
    set status = 'sending', attempts = d.attempts + 1, locked_until = now() + p_lock
    from claimable c
    where d.enquiry_id = c.enquiry_id and d.kind = c.kind
    returning d.enquiry_id, d.kind
  )
  select c.enquiry_id, c.kind, e.name, e.email, e.mailbox, e.project_title, e.project_details, e.created_at
  from claimed c join public.contact_enquiries e on e.id = c.enquiry_id;
end;
$$;

-- Records a failed attempt. A temporary failure waits 2^(attempts-1) × p_base (capped at p_cap, with
-- ±20 % jitter so retries of a burst spread out); a permanent one, or the last allowed attempt, is
-- dead. Returns the new status.
create function private.record_delivery_failure(
  p_enquiry uuid, p_kind text, p_error text, p_permanent boolean, p_max_attempts integer, p_base interval, p_cap interval
)
returns text
language sql
as $$
  update public.contact_deliveries d
  set status = case when p_permanent or d.attempts >= p_max_attempts then 'dead' else 'pending' end,
      dead_at = case when p_permanent or d.attempts >= p_max_attempts then now() end,
      locked_until = null,
      last_error = private.error_text(p_error),
      next_attempt_at = now() + least(p_cap, p_base * power(2, greatest(d.attempts - 1, 0))) * (0.8 + random() * 0.4)
  where d.enquiry_id = p_enquiry and d.kind = p_kind
  returning d.status;
$$;

-- A refusal of the studio's own sending account (a wrong or revoked key, a domain not verified, SMTP
-- credentials refused): neither this mail's fault nor its recipient's, and every other mail would get
-- the same answer. The delivery waits without spending an attempt and is due again at once (each run
-- stops at the first refusal: one request a run); the refusal is recorded for /health.
-- p_enquiry and p_kind are null for the studio's digest (its enquiries stay held by themselves).
create function private.record_account_refusal(p_enquiry uuid, p_kind text, p_reason text)
returns void
language sql
as $$
  update public.contact_deliveries
  set status = 'pending',
      -- claim_deliveries counted an attempt when it was made: give it back.
      attempts = greatest(attempts - 1, 0),
      locked_until = null,
      last_error = private.error_text(p_reason),
      next_attempt_at = now()
  where enquiry_id = p_enquiry and kind = p_kind and status = 'sending';
  insert into private.mail_account_refusal (refused_at, reason) values (now(), private.error_text(p_reason))
  on conflict (id) do update set refused_at = excluded.refused_at, reason = excluded.reason;
$$;

-- A permanent refusal at send time (no such mailbox) marks the mailbox: no confirmation goes there again.
create function private.record_refused_address(p_mailbox text, p_reason text)
returns void
language sql
as $$
  insert into private.undeliverable_addresses (mailbox, reason, source)
  values (p_mailbox, private.error_text(p_reason), 'refused')
  on conflict (mailbox) do update set reason = excluded.reason, recorded_at = now();
$$;

-- A failure the provider reported after accepting the mail (a webhook). The delivery is found by the
-- provider's id, or by its enquiry and kind (the mail's tags); it becomes dead, and for a bounce,
-- complaint or suppression the mailbox is recorded as undeliverable. Returns the kind found.
create function private.record_reported_failure(
  p_provider_id text, p_enquiry uuid, p_kind text, p_mailbox text, p_source text, p_reason text
)
returns text
language plpgsql
as $$
declare
  v_kind text;
begin
  with updated as (
    update public.contact_deliveries d
    set status = 'dead', dead_at = coalesce(d.dead_at, now()), locked_until = null, last_error = private.error_text(p_reason)
    where (p_provider_id is not null and d.provider_id = p_provider_id)
       or (p_enquiry is not null and d.enquiry_id = p_enquiry and d.kind = p_kind)
    returning d.kind
  )
  select min(kind) into v_kind from updated;
  if p_mailbox is not null and p_source in ('bounced', 'complained', 'suppressed') then
    insert into private.undeliverable_addresses (mailbox, reason, source)
    values (p_mailbox, private.error_text(p_reason), p_source)
    on conflict (mailbox) do update set reason = excluded.reason, source = excluded.source, recorded_at = now();
  end if;
  return v_kind;
end;
$$;

-- Replaced: its current text is in supabase/schemas/20_functions.sql (the enquiry as a row, decision 022).
-- Claims up to p_limit held studio mails for one digest, oldest enquiries first. They stay 'held' with
-- a claim: if the digest never finishes, the claim expires and the next run takes them again.
create function private.claim_digest(p_limit integer, p_lock interval)
returns table (enquiry_id uuid, name text, email text, project_title text, project_details text, created_at timestamptz)
language sql
as $$
  with claimable as (
    select d.enquiry_id from public.contact_deliveries d join public.contact_enquiries e on e.id = d.enquiry_id
    where d.kind = 'studio' and d.status = 'held' and (d.locked_until is null or d.locked_until < now())
    order by e.created_at, e.id
    limit p_limit
    for update of d skip locked
  ), claimed as (
    update public.contact_deliveries d set locked_until = now() + p_lock
    from claimable c where d.enquiry_id = c.enquiry_id and d.kind = 'studio'
    returning d.enquiry_id
  )
  select e.id, e.name, e.email, e.project_title, e.project_details, e.created_at
  from claimed c join public.contact_enquiries e on e.id = c.enquiry_id
  order by e.created_at, e.id;
$$;

-- Paused confirmations go out again once the global rate is under its limit: the oldest per mailbox,
-- if it is younger than p_max_age and the mailbox had no confirmation within rules()'s period; the
-- others are dropped (the studio has every enquiry). Returns how many were released.
create function private.release_paused_confirmations(p_global_limit integer, p_global_window interval, p_max_age interval)
returns integer
language plpgsql
as $$
declare
  v_rules record := private.rules();
  v_released integer;
begin
  if private.rate_estimate('global', p_global_window) >= p_global_limit then
    return 0;
  end if;
  with paused as (
    select d.enquiry_id, e.created_at, e.mailbox,
           row_number() over (partition by e.mailbox order by e.created_at) as nth
    from public.contact_deliveries d join public.contact_enquiries e on e.id = d.enquiry_id
    where d.kind = 'confirmation' and d.status = 'held'
  ), released as (
    update public.contact_deliveries d
    set status = case
          when p.created_at < now() - p_max_age then 'suppressed'
          when p.nth > 1 then 'suppressed'
          when exists (select from public.contact_enquiries e2 join public.contact_deliveries d2 on d2.enquiry_id = e2.id and d2.kind = 'confirmation'
                       where e2.mailbox = p.mailbox and d2.status in ('pending', 'sending', 'sent')
                         and e2.created_at > now() - v_rules.confirmation_per_mailbox) then 'suppressed'
          when exists (select from private.undeliverable_addresses u where u.mailbox = p.mailbox) then 'suppressed'
          else 'pending' end,
        last_error = case
          when p.created_at < now() - p_max_age then 'suppressed: paused too long during a flood'
          when p.nth > 1 then 'suppressed: one confirmation per mailbox per hour'
          else d.last_error end,
        next_attempt_at = now()
    from paused p where d.enquiry_id = p.enquiry_id and d.kind = 'confirmation'
    returning d.status
  )
  select count(*) filter (where status = 'pending') into v_released from released;
  return v_released;
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Redelivery runs (the scheduler's /redeliver, and one after an enquiry)
-- ---------------------------------------------------------------------------------------------------

-- Takes the redelivery lease for p_seconds when nobody holds it; true when taken.
create function private.take_redelivery_lease(p_holder uuid, p_seconds integer)
returns boolean
language sql
as $$
  update private.redelivery_state
  set lease_holder = p_holder, lease_until = now() + make_interval(secs => p_seconds)
  where id and (lease_until is null or lease_until < now() or lease_holder = p_holder)
  returning true;
$$;

-- Gives the lease back and records what the run did.
create function private.finish_redelivery(p_holder uuid, p_report jsonb)
returns void
language sql
as $$
  update private.redelivery_state
  set last_run_at = now(), last_report = p_report,
      lease_holder = case when lease_holder = p_holder then null else lease_holder end,
      lease_until = case when lease_holder = p_holder then null else lease_until end
  where id;
$$;

-- Deliveries whose claim expired after their last allowed attempt (the process died while sending):
-- dead, with the reason, in private.undelivered_mail, so none waits for ever in 'sending'. Those with
-- attempts left are claimed again by claim_deliveries. Returns how many died.
create function private.sweep_expired_claims(p_max_attempts integer)
returns integer
language sql
as $$
  with dead as (
    update public.contact_deliveries d
    set status = 'dead', dead_at = now(), locked_until = null,
        last_error = private.error_text(concat_ws('; ', d.last_error, 'claim expired after the last allowed attempt'))
    where d.status = 'sending' and d.locked_until < now() and d.attempts >= p_max_attempts
    returning 1
  )
  select count(*)::integer from dead;
$$;

-- Deletes, in batches of at most p_batch rows each: enquiries (with their deliveries) older than
-- p_keep, rate rows past rules().rate_rows_kept, undeliverable addresses older than p_keep; and clears
-- error texts older than p_keep_errors. Returns what it removed.
create function private.apply_retention(p_keep interval, p_keep_errors interval, p_batch integer)
returns jsonb
language plpgsql
as $$
declare
  v_enquiries integer;
  v_rates integer;
  v_errors integer;
  v_addresses integer;
begin
  delete from public.contact_enquiries where id in (
    select id from public.contact_enquiries where created_at < now() - p_keep order by created_at limit p_batch);
  get diagnostics v_enquiries = row_count;
  delete from public.contact_rate_limits where (bucket, window_start) in (
    select bucket, window_start from public.contact_rate_limits
    where window_start < now() - (select rate_rows_kept from private.rules()) limit p_batch);
  get diagnostics v_rates = row_count;
  update public.contact_deliveries set last_error = null where (enquiry_id, kind) in (
    select enquiry_id, kind from public.contact_deliveries
    where last_error is not null and coalesce(dead_at, sent_at, next_attempt_at) < now() - p_keep_errors
      and status in ('sent', 'dead', 'suppressed')
    limit p_batch);
  get diagnostics v_errors = row_count;
  delete from private.undeliverable_addresses where mailbox in (
    select mailbox from private.undeliverable_addresses where recorded_at < now() - p_keep limit p_batch);
  get diagnostics v_addresses = row_count;
  return jsonb_build_object('enquiries', v_enquiries, 'rateRows', v_rates, 'errorTexts', v_errors, 'addresses', v_addresses);
end;
$$;

-- Whether pg_cron runs the redelivery job (the schedule below); null where pg_cron is not installed.
-- PL/pgSQL plans the query only when it runs, so it works where cron.job does not exist.
create function private.redelivery_scheduled()
returns boolean
language plpgsql
stable
as $$
begin
  if to_regclass('cron.job') is null then
    return null;
  end if;
  return exists (select from cron.job where jobname = 'send-contact-email-redeliver' and active);
end;
$$;

-- New functions in private are executable by PUBLIC by default; only the function's own role calls them.
revoke all on all functions in schema private from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The schedule
-- ---------------------------------------------------------------------------------------------------

-- Retries without hand-pasted SQL (docs/decisions/014): every 5 minutes pg_cron asks pg_net to POST
-- the function's /redeliver, which sends what is due (paced, within REDELIVERY_BUDGET_MS), the digest
-- of held enquiries, released confirmations, and applies retention. The function's URL and the
-- redelivery secret come from Supabase Vault at each run, so nothing secret is in this file or in
-- cron.job. The owner stores them once (README, Deployment):
--   select vault.create_secret('https://<ref>.supabase.co/functions/v1/send-contact-email', 'send_contact_email_url');
--   select vault.create_secret('<REDELIVERY_SECRET>', 'send_contact_email_redelivery_secret');
-- Until they are stored, each run fails in cron.job_run_details and the function's health says the
-- scheduler has not run; the function still retries after each new enquiry.
--
-- pg_net waits timeout_milliseconds for the answer: 60 s covers a whole call (REDELIVERY_BUDGET_MS is
-- at most 50 s: send-contact-email/config.ts). Where pg_cron, pg_net or Vault is not available (the
-- local PostgreSQL from npm), this block does nothing and says so.
do $schedule$
begin
  if not exists (select from pg_available_extensions where name = 'pg_cron')
     or not exists (select from pg_available_extensions where name = 'pg_net')
     or not exists (select from pg_available_extensions where name = 'supabase_vault') then
    raise notice 'pg_cron, pg_net or supabase_vault is not available on this server: redelivery is not scheduled here (the function still retries after each new enquiry)';
    return;
  end if;
  create extension if not exists pg_cron with schema pg_catalog;
  create extension if not exists pg_net with schema extensions;
  create extension if not exists supabase_vault with schema vault;
  perform cron.schedule(
    'send-contact-email-redeliver',
    '*/5 * * * *',
    $job$
      select net.http_post(
        url := (select decrypted_secret from vault.decrypted_secrets where name = 'send_contact_email_url') || '/redeliver',
        headers := jsonb_build_object(
          'content-type', 'application/json',
          'x-redelivery-secret', (select decrypted_secret from vault.decrypted_secrets where name = 'send_contact_email_redelivery_secret')),
        body := '{}'::jsonb,
        timeout_milliseconds := 60000
      );
    $job$
  );
end;
$schedule$;
