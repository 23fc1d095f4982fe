-- Booking enquiries sent through send-contact-email, their mail deliveries, and the rate-limit
-- counters. Only the function (with the server-side database URL) touches these tables:
-- RLS is on with no policies, and anon/authenticated have no grants at all.

create schema if not exists private;
revoke all on schema private from public;

create table public.contact_enquiries (
  id uuid primary key default gen_random_uuid(),
  -- Sent by the client per submission attempt; a retry with the same key is the same enquiry.
  idempotency_key uuid not null unique,
  name text not null check (char_length(name) between 1 and 100),
  email text not null check (char_length(email) between 3 and 254),
  project_title text not null check (char_length(project_title) between 1 and 200),
  project_details text not null default '' check (char_length(project_details) <= 5000),
  -- A salted SHA-256 of the client address: enough to spot abuse, never the address itself.
  client_hash text not null,
  created_at timestamptz not null default now()
);

create table public.contact_deliveries (
  enquiry_id uuid not null references public.contact_enquiries (id) on delete cascade,
  kind text not null check (kind in ('studio', 'confirmation')),
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent')),
  attempts integer not null default 0,
  last_error text,
  -- While 'sending', the claim expires at this time so a crashed attempt is retried.
  locked_until timestamptz,
  sent_at timestamptz,
  primary key (enquiry_id, kind)
);
create index contact_deliveries_pending on public.contact_deliveries (status) where status <> 'sent';

create table public.contact_rate_limits (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (bucket, window_start)
);

alter table public.contact_enquiries enable row level security;
alter table public.contact_deliveries enable row level security;
alter table public.contact_rate_limits enable row level security;
-- Supabase grants new public tables to anon and authenticated by default; take that back too.
revoke all on public.contact_enquiries, public.contact_deliveries, public.contact_rate_limits from anon, authenticated;

-- Counts one hit in a fixed window and says whether the bucket is over its limit.
-- Returns the seconds until the window ends when over, else null.
create function private.hit_rate_limit(p_bucket text, p_limit integer, p_window interval)
returns integer
language plpgsql
as $$
declare
  v_start timestamptz := to_timestamp(floor(extract(epoch from now()) / extract(epoch from p_window)) * extract(epoch from p_window));
  v_hits integer;
begin
  insert into public.contact_rate_limits as r (bucket, window_start, hits)
  values (p_bucket, v_start, 1)
  on conflict (bucket, window_start) do update set hits = r.hits + 1
  returning hits into v_hits;
  if v_hits > p_limit then
    return greatest(1, ceil(extract(epoch from (v_start + p_window - now())))::integer);
  end if;
  return null;
end;
$$;

-- Stores an enquiry once per idempotency key, inside the client and global rate limits, with its
-- two pending deliveries, in one transaction. outcome: 'stored' | 'duplicate' | 'rate-limited'.
create function private.submit_enquiry(
  p_key uuid, p_name text, p_email text, p_title text, p_details text, p_client_hash text,
  p_client_limit integer, p_client_window interval, p_global_limit integer, p_global_window interval
)
returns table (outcome text, enquiry_id uuid, retry_after integer)
language plpgsql
as $$
declare
  v_id uuid;
  v_retry integer;
begin
  select e.id into v_id from public.contact_enquiries e where e.idempotency_key = p_key;
  if v_id is not null then
    return query select 'duplicate'::text, v_id, null::integer;
    return;
  end if;

  v_retry := coalesce(
    private.hit_rate_limit('client:' || p_client_hash, p_client_limit, p_client_window),
    private.hit_rate_limit('global', p_global_limit, p_global_window));
  if v_retry is not null then
    return query select 'rate-limited'::text, null::uuid, v_retry;
    return;
  end if;

  insert into public.contact_enquiries (idempotency_key, name, email, project_title, project_details, client_hash)
  values (p_key, p_name, p_email, p_title, p_details, p_client_hash)
  on conflict (idempotency_key) do nothing
  returning id into v_id;
  if v_id is null then
    -- A concurrent request with the same key won the race.
    select e.id into v_id from public.contact_enquiries e where e.idempotency_key = p_key;
    return query select 'duplicate'::text, v_id, null::integer;
    return;
  end if;

  insert into public.contact_deliveries (enquiry_id, kind) values (v_id, 'studio'), (v_id, 'confirmation');
  return query select 'stored'::text, v_id, null::integer;
end;
$$;

-- Claims deliveries for sending: pending ones, and 'sending' ones whose claim expired.
-- SKIP LOCKED lets concurrent callers (a request and the scheduler) never claim the same row.
create function private.claim_deliveries(p_enquiry uuid, p_limit integer, p_max_attempts integer, p_lock interval)
returns table (enquiry_id uuid, kind text, name text, email text, project_title text, project_details text, created_at timestamptz)
language sql
as $$
  with claimable as (
    select d.enquiry_id, d.kind
    from public.contact_deliveries d
    where (p_enquiry is null or d.enquiry_id = p_enquiry)
      and d.attempts < p_max_attempts
      and (d.status = 'pending' or (d.status = 'sending' and d.locked_until < now()))
    order by d.enquiry_id
    limit p_limit
    for update skip locked
  ), claimed as (
    update public.contact_deliveries d
    set status = 'sending', attempts = d.attempts + 1, locked_until = now() + p_lock
    from claimable c
    where d.enquiry_id = c.enquiry_id and d.kind = c.kind
    returning d.enquiry_id, d.kind
  )
  select c.enquiry_id, c.kind, e.name, e.email, e.project_title, e.project_details, e.created_at
  from claimed c join public.contact_enquiries e on e.id = c.enquiry_id;
$$;

revoke all on all functions in schema private from public;
