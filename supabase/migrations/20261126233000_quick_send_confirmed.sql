-- A fast visitor gets the confirmation the success toast promises (docs/decisions/029).
-- A Send faster than MIN_FILL_MS after page load (p_quick) had its confirmation withheld always: a
-- person whose password manager filled the form in one step was told "Check your email for
-- confirmation" and got none. Now a quick Send is confirmed like any other, but to one mailbox at most
-- once a day (instead of once an hour): a fast human's enquiry is confirmed, a fast bot can aim one
-- mail a day at an address. Not by sender: many phones share one address (carrier NAT).
--
-- The rules that withhold a confirmation move into a function of their own, confirmation_withheld,
-- so the next change of a rule replaces that function alone; submit_enquiry is restated here once,
-- unchanged but for the call. The current text of both is in supabase/schemas/20_functions.sql.

-- Why the confirmation of enquiry p_enquiry (to p_mailbox, from p_client_hash) is not sent, or null:
-- never to an undeliverable mailbox, one per mailbox per rules().confirmation_per_mailbox, at most
-- p_confirmations_per_sender a day per sender. A quick Send (p_quick) gets one only as the first of
-- the day to its mailbox. The studio's notification is never withheld.
create function private.confirmation_withheld(
  p_enquiry uuid, p_mailbox text, p_client_hash text, p_confirmations_per_sender integer, p_quick boolean
)
returns text
language plpgsql
stable
as $$
declare
  v_rules record := private.rules();
  -- Whether the mailbox had a confirmation within its period; how many the sender had in the day.
  v_mailbox_had boolean;
  v_sender_had integer;
begin
  if exists (select from private.undeliverable_addresses u where u.mailbox = p_mailbox) then
    return 'suppressed: the address bounced, complained or was refused before';
  end if;
  select exists (
    select from public.contact_enquiries e join public.contact_deliveries d on d.enquiry_id = e.id and d.kind = 'confirmation'
    where e.mailbox = p_mailbox and e.id <> p_enquiry
      and e.created_at > now() - case when p_quick then v_rules.budget_period else v_rules.confirmation_per_mailbox end
      and d.status in ('pending', 'sending', 'sent', 'held'))
  into v_mailbox_had;
  if v_mailbox_had then
    return case when p_quick
      then 'suppressed: sent faster than a person fills the form in, to an address confirmed today'
      else 'suppressed: one confirmation per mailbox per hour' end;
  end if;
  if p_client_hash = '' then return null; end if;
  select count(*) into v_sender_had from (
    select from public.contact_enquiries e join public.contact_deliveries d on d.enquiry_id = e.id and d.kind = 'confirmation'
    where e.client_hash = p_client_hash and e.id <> p_enquiry and e.created_at > now() - v_rules.budget_period
      and d.status in ('pending', 'sending', 'sent', 'held')
    limit p_confirmations_per_sender) sent;
  if v_sender_had >= p_confirmations_per_sender then
    return 'suppressed: the sender''s confirmations for the day are used up';
  end if;
  return null;
end;
$$;

-- Stores an enquiry with its two deliveries: its arguments and outcomes are described above its current
-- text, in supabase/schemas/20_functions.sql. p_quick now only reaches confirmation_withheld.
create or replace function private.submit_enquiry(
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

revoke all on all functions in schema private from public, anon, authenticated;
