-- Every SQL function, once, in its current text. The rules that are not configuration come first
-- (private.rules()); the limits an owner sets are the functions' arguments (send-contact-email/config.ts).
-- A function in `language sql` is checked against what it names when it is created, so each comes
-- after what it reads.


-- ---------------------------------------------------------------------------------------------------
-- The rules that are not configuration, in one place
-- ---------------------------------------------------------------------------------------------------

-- Named constants the functions below read (the limits an owner sets are their arguments instead).
create function private.rules(
  -- A mailbox (however spelled) gets at most this many confirmations in budget_period, from any number
  -- of senders and whatever they declare (docs/decisions/031).
  out confirmations_per_mailbox integer,
  -- A quick Send's sender gets this share of the owner's CONFIRMATIONS_PER_SENDER_PER_DAY (1/n, rounded
  -- up): only ever fewer, and as lifted as the owner's setting (the local stack: docs/decisions/031).
  out quick_sender_day_divisor integer,
  -- The period of the daily budgets: enquiries stored, confirmations per mailbox and per sender, held per sender.
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
  select 3, 3, interval '1 day', interval '1 day', 3600, 600, 3600, interval '2 days', 500;
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

-- The counters every enquiry shares (the global rate, the day's stores) are kept in a few rows each:
-- a hit goes to one of them at random and a count is their sum, so concurrent enquiries rarely wait for
-- one another's row lock (decision 022: at 80/s they queued on one 'global' row). A count then misses
-- only the hits of transactions still running, as it could before. Per-sender buckets stay one row.
create function private.shards(p_bucket text)
returns text[]
language sql
immutable
as $$
  select array_agg(p_bucket || ':' || n) from generate_series(0, 7) n;
$$;

-- A shared bucket's sliding count (the sum of its shards), without counting a hit.
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

-- Why the confirmation of enquiry p_enquiry (to p_mailbox, from p_client_hash) is not sent, or null. Every
-- rule that withholds a confirmation is here (docs/decisions/031), each a bound no caller can loosen:
-- - never to an address the provider refused or reported (that exact address, not its mailbox);
-- - one sender counts for at most one confirmation per mailbox in rules().budget_period (p_client_hash
--   '', no trustworthy address, is one sender here);
-- - a mailbox gets at most rules().confirmations_per_mailbox in budget_period, whatever the senders:
--   a visitor's confirmation is withheld by others only once that bound is reached;
-- - a sender gets at most p_confirmations_per_sender in budget_period, and a quick Send's sender (p_quick:
--   a declared fill time under MIN_FILL_MS, or a malformed one) 1/rules().quick_sender_day_divisor of it.
-- Every confirmation counts, whatever became of it but never sent (suppressed). The caller holds the
-- mailbox's advisory lock, so concurrent enquiries to one mailbox are counted one at a time.
-- The studio's notification is never withheld.
create function private.confirmation_withheld(
  p_enquiry uuid, p_mailbox text, p_client_hash text, p_confirmations_per_sender integer, p_quick boolean
)
returns text
language plpgsql
stable
as $$
declare
  v_rules record := private.rules();
  -- The mailbox's confirmations in the day, and whether this sender had one of them.
  v_mailbox_had integer;
  v_sender_had_here boolean;
  v_sender_limit integer := case when p_quick
    then ceil(p_confirmations_per_sender::numeric / v_rules.quick_sender_day_divisor)::integer else p_confirmations_per_sender end;
  v_sender_had integer;
begin
  if exists (select from private.undeliverable_addresses u join public.contact_enquiries e on e.email = u.address
             where e.id = p_enquiry) then
    return 'suppressed: the address bounced, complained or was refused before';
  end if;
  select count(*), coalesce(bool_or(e.client_hash = p_client_hash), false) into v_mailbox_had, v_sender_had_here
  from public.contact_enquiries e join public.contact_deliveries d on d.enquiry_id = e.id and d.kind = 'confirmation'
  where e.mailbox = p_mailbox and e.id <> p_enquiry and e.created_at > now() - v_rules.budget_period
    and d.status <> 'suppressed';
  if v_sender_had_here then
    return 'suppressed: this sender''s confirmation to this mailbox today went already';
  end if;
  if v_mailbox_had >= v_rules.confirmations_per_mailbox then
    return 'suppressed: the mailbox''s confirmations for the day are used up';
  end if;
  if p_client_hash = '' then return null; end if;
  select count(*) into v_sender_had from (
    select from public.contact_enquiries e join public.contact_deliveries d on d.enquiry_id = e.id and d.kind = 'confirmation'
    where e.client_hash = p_client_hash and e.id <> p_enquiry and e.created_at > now() - v_rules.budget_period
      and d.status <> 'suppressed'
    limit v_sender_limit) sent;
  if v_sender_had >= v_sender_limit then
    return case when p_quick
      then 'suppressed: sent faster than a person fills the form in, and the sender''s quick confirmations for the day are used up'
      else 'suppressed: the sender''s confirmations for the day are used up' end;
  end if;
  return null;
end;
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
-- p_quick: a declared fill time faster than a person fills the form in, or a malformed one: a bot, or
-- a person whose password manager filled it at once. Stored and answered like any other; it only
-- tightens its confirmation's rules (confirmation_withheld, docs/decisions/031).
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

  -- The confirmation, unless a rule withholds it (confirmation_withheld: the rules live there).
  v_reason := private.confirmation_withheld(v_id, p_mailbox, p_client_hash, p_confirmations_per_sender, p_quick);
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

-- ---------------------------------------------------------------------------------------------------
-- Delivering mail (docs/decisions/003, 014)
-- ---------------------------------------------------------------------------------------------------

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

-- A permanent refusal at send time (no such mailbox) marks that exact address: no confirmation goes
-- there again. p_studio: it was the studio's own notification (/health reports STUDIO_INBOX then).
create function private.record_refused_address(p_address text, p_studio boolean, p_reason text)
returns void
language sql
as $$
  insert into private.undeliverable_addresses as u (address, reason, source, studio)
  values (p_address, private.error_text(p_reason), 'refused', p_studio)
  on conflict (address) do update set reason = excluded.reason, recorded_at = now(), studio = u.studio or excluded.studio;
$$;

-- A failure the provider reported after accepting the mail (a webhook). The delivery is found by the
-- provider's id, or by its enquiry and kind (the mail's tags); it becomes dead, and for a bounce,
-- complaint or suppression the address it reported (exactly, not its mailbox) is recorded as
-- undeliverable, as the studio's when the delivery found is the studio's. Returns the kind found.
create function private.record_reported_failure(
  p_provider_id text, p_enquiry uuid, p_kind text, p_address text, p_source text, p_reason text
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
  if p_address is not null and p_source in ('bounced', 'complained', 'suppressed') then
    insert into private.undeliverable_addresses as u (address, reason, source, studio)
    values (p_address, private.error_text(p_reason), p_source, v_kind is not distinct from 'studio')
    on conflict (address) do update
      set reason = excluded.reason, source = excluded.source, recorded_at = now(), studio = u.studio or excluded.studio;
  end if;
  return v_kind;
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

-- Paused confirmations go out again once the global rate is under its limit, however long the flood
-- lasted, unless their address has become undeliverable meanwhile (then dropped: the studio has every
-- enquiry). A paused confirmation was counted against its mailbox's and sender's bounds when it was
-- stored (confirmation_withheld counts paused ones too), so releasing it late spends nothing more; only
-- those bounds withhold a visitor's confirmation (docs/decisions/031, 036). Returns how many were released.
create function private.release_paused_confirmations(p_global_limit integer, p_global_window interval)
returns integer
language plpgsql
as $$
declare
  v_released integer;
begin
  if private.rate_estimate('global', p_global_window) >= p_global_limit then
    return 0;
  end if;
  with paused as (
    select d.enquiry_id, e.email
    from public.contact_deliveries d join public.contact_enquiries e on e.id = d.enquiry_id
    where d.kind = 'confirmation' and d.status = 'held'
  ), released as (
    update public.contact_deliveries d
    set status = case
          when exists (select from private.undeliverable_addresses u where u.address = p.email) then 'suppressed'
          else 'pending' end,
        last_error = case
          when exists (select from private.undeliverable_addresses u where u.address = p.email)
            then 'suppressed: the address bounced, complained or was refused before'
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
  delete from private.undeliverable_addresses where address in (
    select address from private.undeliverable_addresses where recorded_at < now() - p_keep limit p_batch);
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
