-- A bounce is about the address that bounced, and the confirmation's bounds are no caller's to loosen
-- or to spend for another (docs/decisions/031). This file is history: the current text of everything
-- it changes is in supabase/schemas/ (10_tables.sql, 20_functions.sql, 30_views.sql).

-- Undeliverable addresses are kept exactly as the provider reported them, and say whether the mail was
-- the studio's own (only such a row turns /health red).
alter table private.undeliverable_addresses rename column mailbox to address;
alter table private.undeliverable_addresses add column studio boolean not null default false;
-- A row kept so far names a normalised mailbox, which may come from another spelling's bounce (an
-- alias that never existed): only a row naming the exact address of a confirmation that died stays.
-- The studio's inbox, if undeliverable, is recorded again by its next notification's refusal or bounce.
delete from private.undeliverable_addresses u
where not exists (
  select from public.contact_enquiries e join public.contact_deliveries d on d.enquiry_id = e.id
  where d.kind = 'confirmation' and d.status = 'dead' and e.email = u.address);

drop view private.undeliverable;
create view private.undeliverable as
  select address, source, reason, recorded_at, studio from private.undeliverable_addresses order by recorded_at desc;

drop function private.rules();
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

create or replace function private.confirmation_withheld(
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

drop function private.record_refused_address(text, text);
create function private.record_refused_address(p_address text, p_studio boolean, p_reason text)
returns void
language sql
as $$
  insert into private.undeliverable_addresses as u (address, reason, source, studio)
  values (p_address, private.error_text(p_reason), 'refused', p_studio)
  on conflict (address) do update set reason = excluded.reason, recorded_at = now(), studio = u.studio or excluded.studio;
$$;

drop function private.record_reported_failure(text, uuid, text, text, text, text);
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

create or replace function private.release_paused_confirmations(p_global_limit integer, p_global_window interval, p_max_age interval)
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
    select d.enquiry_id, e.created_at, e.email
    from public.contact_deliveries d join public.contact_enquiries e on e.id = d.enquiry_id
    where d.kind = 'confirmation' and d.status = 'held'
  ), released as (
    update public.contact_deliveries d
    set status = case
          when p.created_at < now() - p_max_age then 'suppressed'
          when exists (select from private.undeliverable_addresses u where u.address = p.email) then 'suppressed'
          else 'pending' end,
        last_error = case
          when p.created_at < now() - p_max_age then 'suppressed: paused too long during a flood'
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

create or replace function private.apply_retention(p_keep interval, p_keep_errors interval, p_batch integer)
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

revoke all on all functions in schema private from public, anon, authenticated;
revoke all on private.undeliverable from public, anon, authenticated;
