-- Bounded by design (docs/decisions/017): nothing an anonymous request chooses grows storage or mail
-- without a bound, and no confirmation can be aimed at a stranger.
-- - Confirmations: one per mailbox (normalised: case, plus-tag, ASCII domain) per hour, at most
--   p_confirmations_per_sender a day per sender, none to an undeliverable address. The studio's
--   notification is never suppressed.
-- - The global rate counts senders, not enquiries: a sender counts once per window, so a trickle from
--   a few addresses (each within its own limit) can no longer hold the site; hold mode ends within one
--   window once fewer senders than the limit remain.
-- - Budgets: enquiries stored per day (all senders), enquiries held (past the global rate, waiting for
--   the digest), and held enquiries per sender a day. At a budget the enquiry is refused (503 "busy" /
--   429): the visitor is shown the spec's failure text with the studio's address, so the studio still
--   hears of it.
-- - The same idempotency key with another message is a conflict (409), and the first message stays.
-- - The digest is oldest first, and a claimed digest that never finished goes back to held by itself.
-- - Paused confirmations older than p_max_age are dropped when hold mode ends (the studio has the enquiry).
-- - Retention: enquiries and their deliveries older than a period, rate rows past their window, error
--   texts and undeliverable addresses, deleted in bounded batches by every redelivery run.

-- One length limit for addresses, as the contract and the mail path (MAX_EMAIL_LENGTH). Rows already
-- stored are left as they are.
alter table public.contact_enquiries
  add constraint contact_enquiries_email_length check (char_length(email) <= 253) not valid;

alter table public.contact_enquiries add column mailbox text;
update public.contact_enquiries set mailbox = lower(email) where mailbox is null;
create index contact_enquiries_mailbox_recent on public.contact_enquiries (mailbox, created_at);
create index contact_enquiries_client_recent on public.contact_enquiries (client_hash, created_at);
create index contact_enquiries_created on public.contact_enquiries (created_at);
drop index if exists public.contact_enquiries_email_recent;

-- Counts one hit of a bucket in the current fixed window. Returns this window's hits, the sliding
-- estimate (this window's hits plus the previous window's, weighted by how much of it is still within
-- one window of now, as hit_rate_limit counts), and the seconds until this window ends.
create function private.count_hit(p_bucket text, p_window interval, out hits integer, out estimate double precision, out seconds_left integer)
language plpgsql
as $$
declare
  v_seconds double precision := extract(epoch from p_window);
  v_now double precision := extract(epoch from now());
  v_start timestamptz := to_timestamp(floor(v_now / v_seconds) * v_seconds);
  v_elapsed double precision := v_now - extract(epoch from v_start);
  v_previous integer;
begin
  insert into public.contact_rate_limits as r (bucket, window_start, hits)
  values (p_bucket, v_start, 1)
  on conflict (bucket, window_start) do update set hits = r.hits + 1
  returning r.hits into hits;
  select r.hits into v_previous from public.contact_rate_limits r where r.bucket = p_bucket and r.window_start = v_start - p_window;
  estimate := hits + coalesce(v_previous, 0) * (1 - v_elapsed / v_seconds);
  seconds_left := greatest(1, ceil(v_seconds - v_elapsed))::integer;
end;
$$;

drop function private.submit_enquiry(uuid, text, text, text, text, text, integer, interval, integer, interval);

-- outcome: 'stored' | 'held' (stored; past the global rate its mails wait for the digest) | 'duplicate'
-- (the same key and message again) | 'conflict' (the same key, another message) | 'rate-limited'
-- (the sender's own limit, or their held budget) | 'busy' (a global budget is spent).
-- p_client_hash '' means no trustworthy address: no per-sender limit, and the enquiry counts against
-- the global rate as a sender of its own.
create function private.submit_enquiry(
  p_key uuid, p_name text, p_email text, p_mailbox text, p_title text, p_details text, p_client_hash text,
  p_per_client integer, p_client_window interval, p_global integer, p_global_window interval,
  p_enquiries_per_day integer, p_held_max integer, p_confirmations_per_sender integer
)
returns table (outcome text, enquiry_id uuid, retry_after integer)
language plpgsql
as $$
declare
  v_existing public.contact_enquiries;
  v_id uuid;
  v_client_hits integer := 0;
  v_client_estimate double precision := 0;
  v_client_retry integer;
  v_global double precision;
  v_held boolean;
  v_confirmation text;
  v_reason text;
begin
  select * into v_existing from public.contact_enquiries e where e.idempotency_key = p_key;
  if found then
    if (v_existing.name, v_existing.email, v_existing.project_title, v_existing.project_details) = (p_name, p_email, p_title, p_details) then
      return query select 'duplicate'::text, v_existing.id, null::integer;
    else
      return query select 'conflict'::text, v_existing.id, null::integer;
    end if;
    return;
  end if;

  -- The sender's own limit (sliding window), then the global rate, counted once per sender and window.
  if p_client_hash <> '' then
    select c.hits, c.estimate, c.seconds_left into v_client_hits, v_client_estimate, v_client_retry
    from private.count_hit('client:' || p_client_hash, p_client_window) c;
    if v_client_estimate > p_per_client then
      return query select 'rate-limited'::text, null::uuid, v_client_retry;
      return;
    end if;
  end if;
  if p_client_hash = '' or v_client_hits = 1 then
    v_global := (private.count_hit('global', p_global_window)).estimate;
  else
    v_global := private.rate_estimate('global', p_global_window);
  end if;
  v_held := v_global > p_global;

  -- Budgets: what is stored in a day, what is held, and what one sender may have held in a day.
  if (select count(*) from public.contact_enquiries e where e.created_at > now() - interval '1 day') >= p_enquiries_per_day then
    return query select 'busy'::text, null::uuid, 3600;
    return;
  end if;
  if v_held then
    if (select count(*) from public.contact_deliveries d where d.kind = 'studio' and d.status = 'held') >= p_held_max then
      return query select 'busy'::text, null::uuid, 600;
      return;
    end if;
    if p_client_hash <> '' and (select count(*) from public.contact_enquiries e
        where e.client_hash = p_client_hash and e.held and e.created_at > now() - interval '1 day') >= p_per_client then
      return query select 'rate-limited'::text, null::uuid, 3600;
      return;
    end if;
  end if;

  -- Enquiries to the same mailbox, and from the same sender, decide their confirmations one at a time.
  perform pg_advisory_xact_lock(hashtext('confirmation:' || p_mailbox));
  if p_client_hash <> '' then perform pg_advisory_xact_lock(hashtext('sender:' || p_client_hash)); end if;
  insert into public.contact_enquiries (idempotency_key, name, email, mailbox, project_title, project_details, client_hash, held)
  values (p_key, p_name, p_email, p_mailbox, p_title, p_details, p_client_hash, v_held)
  on conflict (idempotency_key) do nothing
  returning id into v_id;
  if v_id is null then
    -- A concurrent request with the same key won the race.
    select * into v_existing from public.contact_enquiries e where e.idempotency_key = p_key;
    return query select case when (v_existing.name, v_existing.email, v_existing.project_title, v_existing.project_details)
        = (p_name, p_email, p_title, p_details) then 'duplicate' else 'conflict' end, v_existing.id, null::integer;
    return;
  end if;

  v_reason := case
    when exists (select from private.undeliverable_addresses u where u.mailbox = p_mailbox)
      then 'suppressed: the address bounced, complained or was refused before'
    when exists (
      select from public.contact_enquiries e join public.contact_deliveries d on d.enquiry_id = e.id and d.kind = 'confirmation'
      where e.mailbox = p_mailbox and e.id <> v_id and e.created_at > now() - interval '1 hour'
        and d.status in ('pending', 'sending', 'sent', 'held'))
      then 'suppressed: one confirmation per mailbox per hour'
    when p_client_hash <> '' and (select count(*) from public.contact_enquiries e join public.contact_deliveries d on d.enquiry_id = e.id and d.kind = 'confirmation'
      where e.client_hash = p_client_hash and e.id <> v_id and e.created_at > now() - interval '1 day'
        and d.status in ('pending', 'sending', 'sent', 'held')) >= p_confirmations_per_sender
      then 'suppressed: the sender''s confirmations for the day are used up'
  end;
  v_confirmation := case when v_reason is not null then 'suppressed' when v_held then 'held' else 'pending' end;
  insert into public.contact_deliveries (enquiry_id, kind, status, last_error)
  values (v_id, 'studio', case when v_held then 'held' else 'pending' end, null), (v_id, 'confirmation', v_confirmation, v_reason);
  return query select case when v_held then 'held' else 'stored' end, v_id, null::integer;
end;
$$;

-- Claims up to p_limit held studio mails for one digest, oldest enquiries first. They stay 'held' with
-- a claim: if the digest never finishes, the claim expires and the next run takes them again.
create or replace function private.claim_digest(p_limit integer, p_lock interval)
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

-- Digest claims of the former kind ('sending' without an attempt) go back to held.
update public.contact_deliveries set status = 'held', locked_until = null where kind = 'studio' and status = 'sending' and attempts = 0;

-- Paused confirmations go out again once the global rate is under its limit: the oldest per mailbox,
-- if it is younger than p_max_age and the mailbox had no confirmation in the last hour; the others are
-- dropped (the studio has every enquiry). Returns how many were released.
drop function private.release_paused_confirmations(integer, interval);
create function private.release_paused_confirmations(p_global_limit integer, p_global_window interval, p_max_age interval)
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
                       where e2.mailbox = p.mailbox and d2.status in ('pending', 'sending', 'sent') and e2.created_at > now() - interval '1 hour') then 'suppressed'
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

-- Deletes, in batches of at most p_batch rows each: enquiries (with their deliveries) older than
-- p_keep, rate rows older than a day past their window, undeliverable addresses older than p_keep;
-- and clears error texts older than p_keep_errors. Returns what it removed.
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
    select bucket, window_start from public.contact_rate_limits where window_start < now() - interval '2 days' limit p_batch);
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

-- Traffic at a glance for the owner (SQL editor), now with the day's total.
drop view private.enquiry_traffic;
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

create view private.undeliverable as
  select mailbox, source, reason, recorded_at from private.undeliverable_addresses order by recorded_at desc;

revoke all on all functions in schema private from public;
revoke all on private.enquiry_traffic, private.undeliverable from public, anon, authenticated;
