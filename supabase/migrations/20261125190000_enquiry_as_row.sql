-- The enquiry crosses into and out of SQL as JSON of its row (docs/decisions/022). The message's
-- fields come in as one jsonb object keyed by column (store.ts makes it from the contract's FIELDS),
-- are stored with jsonb_populate_record, compared as jsonb, and go back out as to_jsonb of the stored
-- row, from which every mail is built (the first attempt and every retry alike). A new nullable column
-- of contact_enquiries then passes through every function here unchanged: adding a field is an
-- `alter table`, never a function dropped and created again. This file is history: the current text
-- of every function below is in supabase/schemas/20_functions.sql.

drop function private.same_message(text, text, text, text);
drop function private.submit_enquiry(
  uuid, text, text, text, text, text, text, integer, interval, integer, interval, integer, integer, integer, interval);
drop function private.claim_deliveries(uuid, integer, integer, interval);
drop function private.claim_digest(integer, interval);

-- The counters every enquiry shares (the global rate, the day's stores) are kept in a few rows each:
-- a hit goes to one of them at random and a count is their sum, so concurrent enquiries rarely wait for
-- one another's row lock (decision 022: at 80/s they queued on the one 'global' row). A count then misses
-- only the hits of transactions still running, as it could before. Per-sender buckets stay one row.
create function private.shards(p_bucket text)
returns text[]
language sql
immutable
as $$
  select array_agg(p_bucket || ':' || n) from generate_series(0, 7) n;
$$;

-- A shared bucket's sliding count (the sum of its shards), without counting a hit.
create or replace function private.rate_estimate(p_bucket text, p_window interval)
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
  from public.contact_rate_limits r where r.bucket = any(private.shards(p_bucket)) and r.window_start in (v_start, v_start - p_window);
  return private.sliding_count(v_current, v_previous, v_start, p_window);
end;
$$;

-- Counts one hit of a shared bucket, in one of its shards; returns its sliding count with the hit.
create function private.count_shared_hit(p_bucket text, p_window interval)
returns double precision
language plpgsql
as $$
declare
  v_shards text[] := private.shards(p_bucket);
begin
  insert into public.contact_rate_limits as r (bucket, window_start, hits)
  values (v_shards[1 + floor(random() * cardinality(v_shards))::integer], private.window_start(p_window), 1)
  on conflict (bucket, window_start) do update set hits = r.hits + 1;
  return private.rate_estimate(p_bucket, p_window);
end;
$$;

create or replace view private.enquiry_traffic as
  select
    (select count(*) from public.contact_enquiries where created_at > now() - interval '1 hour') as enquiries_last_hour,
    (select count(*) from public.contact_enquiries where created_at > now() - interval '1 day') as enquiries_last_day,
    (select count(*) from public.contact_enquiries where held and created_at > now() - interval '1 day') as held_last_day,
    (select count(*) from public.contact_deliveries where kind = 'studio' and status = 'held') as studio_mails_waiting_for_digest,
    (select count(*) from public.contact_deliveries where kind = 'confirmation' and status = 'held') as confirmations_paused,
    (select count(*) from public.contact_deliveries d join public.contact_enquiries e on e.id = d.enquiry_id
      where d.status = 'suppressed' and e.created_at > now() - interval '1 day') as confirmations_suppressed_last_day,
    (select coalesce(sum(hits), 0) from public.contact_rate_limits
      where bucket = any(private.shards('global')) and window_start > now() - interval '1 hour') as global_senders_last_hour;

-- A message naming a column contact_enquiries does not have: the function was deployed before the
-- migration that adds its field. It must fail loudly, never store the enquiry without that field.
create function private.check_message_columns(p_message jsonb)
returns void
language plpgsql
stable
as $$
declare
  v_missing text;
begin
  select string_agg(k, ', ') into v_missing from jsonb_object_keys(p_message) k
  where not exists (select from pg_attribute a
    where a.attrelid = 'public.contact_enquiries'::regclass and a.attname = k and a.attnum > 0 and not a.attisdropped);
  if v_missing is not null then
    raise exception 'contact_enquiries has no column %: apply the migration that adds it before the function that sends it', v_missing;
  end if;
end;
$$;

-- The first enquiry within rules().same_message_within from this sender with this message to this
-- mailbox, if any: one visitor's double submit. The page carries no per-visitor key (decision 012), so
-- their same message can come under two keys (the no-JavaScript post still on its way when Send is
-- pressed again, a reload, a second tab). Never another sender's (docs/decisions/022): whether someone
-- else sent this message must not change any answer. The address is compared as its mailbox (one
-- spelling or another), every other field as stored.
create function private.same_message(p_client_hash text, p_mailbox text, p_message jsonb)
returns uuid
language sql
stable
as $$
  select e.id from public.contact_enquiries e
  where e.client_hash = p_client_hash and e.created_at > now() - (select same_message_within from private.rules())
    and e.mailbox = p_mailbox and to_jsonb(e) @> (p_message - 'email')
  order by e.created_at limit 1;
$$;

-- Stores an enquiry with its two deliveries, in one transaction, within the limits (decisions 013, 017).
-- p_message: the message's fields, keyed by column. Returns the stored row as `enquiry` (to_jsonb).
-- outcome:
--   'stored'       stored; its mails are due
--   'held'         stored; past the global rate its mails wait (a digest for the studio, the
--                  confirmation paused until the flood ends)
--   'duplicate'    the same key and message again (a replay: not counted again), or the same message
--                  from the same sender under another key (counted against the sender's limit): the
--                  first enquiry's id, no new mail. Never another sender's enquiry (same_message).
--   'conflict'     the same key with another message: the first stays
--   'rate-limited' the sender's own limit (sliding window), or their held enquiries of the day
--   'busy'         a budget is spent: the enquiries of the day, or the enquiries held at once
-- p_client_hash '' means no trustworthy address: no per-sender limit, and the enquiry counts against
-- the global rate as a sender of its own. The global rate counts senders, not enquiries: a sender
-- counts once per window, so a trickle from a few senders within their own limits never holds the site.
-- Every count is bounded: budgets are sliding counters, other counts stop at their limit.
-- p_quick: filled faster than a person fills the form in (or with no fill time): a bot, or a person
-- whose password manager filled it at once. Stored and answered like any other. In this text its
-- confirmation was suppressed; what a quick Send's confirmation gets now is in confirmation_withheld
-- (supabase/schemas/20_functions.sql).
-- p_claim_lock: the caller sends the due mails at once, so they are stored already claimed for it
-- ('sending' for p_claim_lock, the attempt counted, as claim_deliveries would; a claim that expires
-- is taken again by a redelivery run). claimed lists their kinds. Null (no mail transport can work):
-- they are stored due, and no attempt is spent.
create function private.submit_enquiry(
  p_key uuid, p_message jsonb, p_mailbox text, p_client_hash text,
  p_per_client integer, p_client_window interval, p_global integer, p_global_window interval,
  p_enquiries_per_day integer, p_held_max integer, p_confirmations_per_sender integer, p_quick boolean, p_claim_lock interval
)
returns table (outcome text, enquiry_id uuid, retry_after integer, enquiry jsonb, claimed text[])
language plpgsql
-- A lock held elsewhere (a stuck transaction, an owner's long statement) stops this enquiry after this
-- long with lock_not_available, which the function answers 503 with Retry-After: never a hang.
set lock_timeout = '3s'
as $$
declare
  v_rules record := private.rules();
  v_existing public.contact_enquiries;
  v_row public.contact_enquiries;
  v_id uuid;
  v_client_hits integer := 0;
  v_client_estimate double precision := 0;
  v_client_retry integer;
  v_held boolean;
  v_confirmation text;
  v_reason text;
  v_claimed text[];
begin
  perform private.check_message_columns(p_message);
  select * into v_existing from public.contact_enquiries e where e.idempotency_key = p_key;
  if found then
    return query select case when to_jsonb(v_existing) @> p_message then 'duplicate' else 'conflict' end,
      v_existing.id, null::integer, null::jsonb, null::text[];
    return;
  end if;

  -- Enquiries from the same sender, and to the same mailbox, are decided one at a time: one visitor's
  -- two paths sending the same message at once store it once, and confirmations are counted exactly.
  if p_client_hash <> '' then perform pg_advisory_xact_lock(hashtext('sender:' || p_client_hash)); end if;
  perform pg_advisory_xact_lock(hashtext('confirmation:' || p_mailbox));

  -- The sender's own limit, then the global rate, counted once per sender and window. Every request
  -- counts, a repeat of the sender's own message too: no answer depends on what others sent.
  if p_client_hash <> '' then
    select c.hits, c.estimate, c.seconds_left into v_client_hits, v_client_estimate, v_client_retry
    from private.count_hit('client:' || p_client_hash, p_client_window) c;
    if v_client_estimate > p_per_client then
      return query select 'rate-limited'::text, null::uuid, v_client_retry, null::jsonb, null::text[];
      return;
    end if;
  end if;
  if p_client_hash = '' or v_client_hits = 1 then
    v_held := private.count_shared_hit('global', p_global_window) > p_global;
  else
    v_held := private.rate_estimate('global', p_global_window) > p_global;
  end if;

  -- The sender's own message again under another key (the other path, a reload, a second tab): the
  -- same enquiry. Without a sender ('') nothing tells two callers apart: no match.
  if p_client_hash <> '' then
    v_id := private.same_message(p_client_hash, p_mailbox, p_message);
    if v_id is not null then
      return query select 'duplicate'::text, v_id, null::integer, null::jsonb, null::text[];
      return;
    end if;
  end if;

  -- Budgets: the enquiries stored in a day, those held at once, and one sender's held in a day.
  if private.rate_estimate('stored', v_rules.budget_period) >= p_enquiries_per_day then
    return query select 'busy'::text, null::uuid, v_rules.busy_day_retry_after, null::jsonb, null::text[];
    return;
  end if;
  if v_held then
    if (select count(*) from (select from public.contact_deliveries d
        where d.kind = 'studio' and d.status = 'held' limit p_held_max) held) >= p_held_max then
      return query select 'busy'::text, null::uuid, v_rules.busy_held_retry_after, null::jsonb, null::text[];
      return;
    end if;
    if p_client_hash <> '' and (select count(*) from (select from public.contact_enquiries e
        where e.client_hash = p_client_hash and e.held and e.created_at > now() - v_rules.budget_period limit p_per_client) held) >= p_per_client then
      return query select 'rate-limited'::text, null::uuid, v_rules.sender_held_retry_after, null::jsonb, null::text[];
      return;
    end if;
  end if;

  -- The row is the message's fields (whatever columns they name) with what this function decides over them.
  insert into public.contact_enquiries
  select r.* from jsonb_populate_record(null::public.contact_enquiries, p_message || jsonb_build_object(
    'id', gen_random_uuid(), 'idempotency_key', p_key, 'mailbox', p_mailbox, 'client_hash', p_client_hash,
    'held', v_held, 'created_at', now())) r
  on conflict (idempotency_key) do nothing
  returning * into v_row;
  if v_row.id is null then
    -- A concurrent request with the same key won the race.
    select * into v_existing from public.contact_enquiries e where e.idempotency_key = p_key;
    return query select case when to_jsonb(v_existing) @> p_message then 'duplicate' else 'conflict' end,
      v_existing.id, null::integer, null::jsonb, null::text[];
    return;
  end if;
  v_id := v_row.id;

  -- The confirmation: never to an undeliverable mailbox, one per mailbox per rules() period, and at
  -- most p_confirmations_per_sender a day per sender. The studio's notification is never suppressed.
  v_reason := case
    when p_quick then 'suppressed: sent faster than a person fills the form in'
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
  -- Counted last: the row of the day's counter it takes is then locked only until this transaction commits.
  perform private.count_shared_hit('stored', v_rules.budget_period);
  return query select case when v_held then 'held' else 'stored' end, v_id, null::integer, to_jsonb(v_row), v_claimed;
end;
$$;

-- Claims up to p_limit due deliveries, of one enquiry (p_enquiry) or of all (null, oldest due first):
-- pending ones whose next attempt has come, and 'sending' ones whose claim expired (the process died
-- mid-send). The attempt is counted here, when it is really about to be made. SKIP LOCKED: concurrent
-- callers (a request and a redelivery run) never claim the same row. Planned for each call's own
-- arguments, so one enquiry's claim reads its two rows by primary key. Each comes with its enquiry's row.
create function private.claim_deliveries(p_enquiry uuid, p_limit integer, p_max_attempts integer, p_lock interval)
returns table (enquiry_id uuid, kind text, enquiry jsonb)
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
  select c.enquiry_id, c.kind, to_jsonb(e)
  from claimed c join public.contact_enquiries e on e.id = c.enquiry_id;
end;
$$;

-- Claims up to p_limit held studio mails for one digest, oldest enquiries first, each with its row.
-- They stay 'held' with a claim: if the digest never finishes, the claim expires and the next run takes
-- them again.
create function private.claim_digest(p_limit integer, p_lock interval)
returns table (enquiry_id uuid, enquiry jsonb)
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
  select e.id, to_jsonb(e)
  from claimed c join public.contact_enquiries e on e.id = c.enquiry_id
  order by e.created_at, e.id;
$$;

revoke all on all functions in schema private from public, anon, authenticated;
revoke all on private.enquiry_traffic from public, anon, authenticated;
