-- The same message is one enquiry, whichever door or key it comes by (issue 19, decision 017).
-- A visitor whose no-JavaScript post is still on its way when the page hydrates may press Send again:
-- the browser's path then sends the same message under its own random key (the page is the same for
-- every visitor and carries no key; the site derives the no-JavaScript key from the message, the
-- visitor's address and the day). A reload, a second tab or another network does the same. So an
-- enquiry with the same mailbox (normalised address), name, title and details as one stored in the
-- last day is that enquiry: 'duplicate', its id, no new mail, and no rate-limit hit. It is checked
-- first (the usual case: the first one is stored) and again under the mailbox's lock (two at once).
-- contact_enquiries_mailbox_recent (mailbox, created_at) finds the candidates.

-- The first enquiry of the last day with this message, if any.
create function private.same_message(p_mailbox text, p_name text, p_title text, p_details text)
returns uuid
language sql
stable
as $$
  select e.id from public.contact_enquiries e
  where e.mailbox = p_mailbox and e.created_at > now() - interval '1 day'
    and (e.name, e.project_title, e.project_details) = (p_name, p_title, p_details)
  order by e.created_at limit 1;
$$;

create or replace function private.submit_enquiry(
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

  -- The same message again under another key (the other door, a reload, a second tab): the same enquiry.
  v_id := private.same_message(p_mailbox, p_name, p_title, p_details);
  if v_id is not null then
    return query select 'duplicate'::text, v_id, null::integer;
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
  -- Checked again under the mailbox's lock: two doors sending the same message at once store it once.
  v_id := private.same_message(p_mailbox, p_name, p_title, p_details);
  if v_id is not null then
    return query select 'duplicate'::text, v_id, null::integer;
    return;
  end if;
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

revoke all on function private.same_message(text, text, text, text) from public, anon, authenticated;
