-- A flood cannot cost a real enquiry (docs/decisions/013). What stores enquiries is separated from
-- what protects inboxes:
-- - a sender over their own limit is refused (429), as before;
-- - past the global rate, enquiries are still stored, but their mails are held: the studio gets one
--   digest per scheduler run instead of one mail each, and visitors' confirmations pause until the
--   rate is back under the limit;
-- - a confirmation goes to one address at most once an hour; later ones are suppressed.

alter table public.contact_enquiries add column held boolean not null default false;
create index contact_enquiries_email_recent on public.contact_enquiries (lower(email), created_at);

alter table public.contact_deliveries drop constraint contact_deliveries_status_check;
alter table public.contact_deliveries add constraint contact_deliveries_status_check
  check (status in ('pending', 'sending', 'sent', 'dead', 'held', 'suppressed'));
create index contact_deliveries_held on public.contact_deliveries (kind) where status = 'held';

-- This window's hits of a bucket plus the previous window's weighted share (as hit_rate_limit counts),
-- without counting a hit.
create function private.rate_estimate(p_bucket text, p_window interval)
returns double precision
language sql
stable
as $$
  with w as (
    select extract(epoch from p_window) as seconds,
           to_timestamp(floor(extract(epoch from now()) / extract(epoch from p_window)) * extract(epoch from p_window)) as start
  )
  select coalesce((select r.hits from public.contact_rate_limits r, w where r.bucket = p_bucket and r.window_start = w.start), 0)
       + coalesce((select r.hits from public.contact_rate_limits r, w where r.bucket = p_bucket and r.window_start = w.start - p_window), 0)
         * (1 - (extract(epoch from now()) - extract(epoch from w.start)) / w.seconds)
  from w;
$$;

-- outcome: 'stored' | 'held' (stored, mails held: over the global rate) | 'duplicate' | 'rate-limited'.
-- p_client_limit null: no trustworthy client address, so no per-client limit (decision 009).
create or replace function private.submit_enquiry(
  p_key uuid, p_name text, p_email text, p_title text, p_details text, p_client_hash text,
  p_client_limit integer, p_client_window interval, p_global_limit integer, p_global_window interval
)
returns table (outcome text, enquiry_id uuid, retry_after integer)
language plpgsql
as $$
declare
  v_id uuid;
  v_retry integer;
  v_held boolean;
  v_confirmation text;
begin
  select e.id into v_id from public.contact_enquiries e where e.idempotency_key = p_key;
  if v_id is not null then
    return query select 'duplicate'::text, v_id, null::integer;
    return;
  end if;

  if p_client_limit is not null then
    v_retry := private.hit_rate_limit('client:' || p_client_hash, p_client_limit, p_client_window);
    if v_retry is not null then
      return query select 'rate-limited'::text, null::uuid, v_retry;
      return;
    end if;
  end if;
  v_held := private.hit_rate_limit('global', p_global_limit, p_global_window) is not null;

  -- One confirmation per address and hour: serialise enquiries from the same address.
  perform pg_advisory_xact_lock(hashtext('confirmation:' || lower(p_email)));
  insert into public.contact_enquiries (idempotency_key, name, email, project_title, project_details, client_hash, held)
  values (p_key, p_name, p_email, p_title, p_details, p_client_hash, v_held)
  on conflict (idempotency_key) do nothing
  returning id into v_id;
  if v_id is null then
    -- A concurrent request with the same key won the race.
    select e.id into v_id from public.contact_enquiries e where e.idempotency_key = p_key;
    return query select 'duplicate'::text, v_id, null::integer;
    return;
  end if;

  v_confirmation := case
    when exists (
      select from public.contact_enquiries e join public.contact_deliveries d on d.enquiry_id = e.id and d.kind = 'confirmation'
      where lower(e.email) = lower(p_email) and e.id <> v_id and e.created_at > now() - interval '1 hour'
        and d.status in ('pending', 'sending', 'sent', 'held')
    ) then 'suppressed'
    when v_held then 'held'
    else 'pending'
  end;
  insert into public.contact_deliveries (enquiry_id, kind, status)
  values (v_id, 'studio', case when v_held then 'held' else 'pending' end), (v_id, 'confirmation', v_confirmation);
  return query select case when v_held then 'held' else 'stored' end, v_id, null::integer;
end;
$$;

-- Claims up to p_limit held studio mails for one digest (oldest first).
create function private.claim_digest(p_limit integer, p_lock interval)
returns table (enquiry_id uuid, name text, email text, project_title text, project_details text, created_at timestamptz)
language sql
as $$
  with claimable as (
    select d.enquiry_id from public.contact_deliveries d
    where d.kind = 'studio' and d.status = 'held'
    order by d.enquiry_id
    limit p_limit
    for update skip locked
  ), claimed as (
    update public.contact_deliveries d set status = 'sending', locked_until = now() + p_lock
    from claimable c where d.enquiry_id = c.enquiry_id and d.kind = 'studio'
    returning d.enquiry_id
  )
  select e.id, e.name, e.email, e.project_title, e.project_details, e.created_at
  from claimed c join public.contact_enquiries e on e.id = c.enquiry_id
  order by e.created_at;
$$;

-- Paused confirmations go out again once the global rate is under its limit: the oldest per
-- address (the others are suppressed: one confirmation per address). Returns how many were released.
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
    select d.enquiry_id, row_number() over (partition by lower(e.email) order by e.created_at) as nth
    from public.contact_deliveries d join public.contact_enquiries e on e.id = d.enquiry_id
    where d.kind = 'confirmation' and d.status = 'held'
  ), released as (
    update public.contact_deliveries d
    set status = case when p.nth = 1 then 'pending' else 'suppressed' end, next_attempt_at = now()
    from paused p where d.enquiry_id = p.enquiry_id and d.kind = 'confirmation'
    returning d.status
  )
  select count(*) filter (where status = 'pending') into v_released from released;
  return v_released;
end;
$$;

-- Traffic at a glance for the owner (SQL editor): the global rate, holds, suppressed confirmations,
-- and per-sender buckets over their limit recently (the sender only as a salted hash).
create view private.enquiry_traffic as
  select
    (select count(*) from public.contact_enquiries where created_at > now() - interval '1 hour') as enquiries_last_hour,
    (select count(*) from public.contact_enquiries where held and created_at > now() - interval '1 day') as held_last_day,
    (select count(*) from public.contact_deliveries where kind = 'studio' and status = 'held') as studio_mails_waiting_for_digest,
    (select count(*) from public.contact_deliveries where kind = 'confirmation' and status = 'held') as confirmations_paused,
    (select count(*) from public.contact_deliveries d join public.contact_enquiries e on e.id = d.enquiry_id
      where d.status = 'suppressed' and e.created_at > now() - interval '1 day') as confirmations_suppressed_last_day,
    (select coalesce(sum(hits), 0) from public.contact_rate_limits where bucket = 'global' and window_start > now() - interval '1 hour') as global_hits_last_hour;

create view private.rate_limit_windows as
  select bucket, window_start, hits from public.contact_rate_limits
  where window_start > now() - interval '1 day'
  order by window_start desc, hits desc;

revoke all on all functions in schema private from public;
revoke all on private.enquiry_traffic, private.rate_limit_windows from public, anon, authenticated;
