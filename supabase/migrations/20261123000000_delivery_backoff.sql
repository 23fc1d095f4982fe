-- Redelivery that cannot burn mail (docs/decisions/003, amended): each delivery waits for its own
-- next-attempt time (exponential backoff), a permanent refusal by the provider ends it at once
-- ('dead', with the reason), and what could not be delivered is visible in one view.

alter table public.contact_deliveries
  add column next_attempt_at timestamptz not null default now(),
  add column dead_at timestamptz;
alter table public.contact_deliveries drop constraint contact_deliveries_status_check;
alter table public.contact_deliveries
  add constraint contact_deliveries_status_check check (status in ('pending', 'sending', 'sent', 'dead'));
drop index public.contact_deliveries_pending;
create index contact_deliveries_due on public.contact_deliveries (next_attempt_at) where status in ('pending', 'sending');

-- Claims up to p_limit deliveries that are due: pending ones whose next attempt has come, and
-- 'sending' ones whose claim expired (the process died mid-send). Oldest due first. The attempt is
-- counted here, when it is really about to be made.
create or replace function private.claim_deliveries(p_enquiry uuid, p_limit integer, p_max_attempts integer, p_lock interval)
returns table (enquiry_id uuid, kind text, name text, email text, project_title text, project_details text, created_at timestamptz)
language sql
as $$
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
  select c.enquiry_id, c.kind, e.name, e.email, e.project_title, e.project_details, e.created_at
  from claimed c join public.contact_enquiries e on e.id = c.enquiry_id;
$$;

-- Records a failed attempt. A temporary failure waits 2^(attempts-1) × p_base (capped at p_cap, with
-- ±20 % jitter so retries of a burst spread out); a permanent one, or the last allowed attempt, is dead.
-- Returns the new status.
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
      last_error = left(p_error, 500),
      next_attempt_at = now() + least(p_cap, p_base * power(2, greatest(d.attempts - 1, 0))) * (0.8 + random() * 0.4)
  where d.enquiry_id = p_enquiry and d.kind = p_kind
  returning d.status;
$$;

-- Every delivery that will not be tried again, with what it was about. The README points the owner here.
create view private.undelivered_mail as
  select d.enquiry_id, d.kind, d.attempts, d.last_error as reason, d.dead_at,
         e.created_at as enquiry_created_at, e.name, e.email, e.project_title
  from public.contact_deliveries d
  join public.contact_enquiries e on e.id = d.enquiry_id
  where d.status = 'dead'
  order by d.dead_at desc;

revoke all on all functions in schema private from public;
revoke all on private.undelivered_mail from public, anon, authenticated;
