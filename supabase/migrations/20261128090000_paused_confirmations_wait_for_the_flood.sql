-- A paused confirmation is no longer dropped for its age: it goes when the flood ends, however long that
-- took; only its mailbox's and sender's daily bounds withhold it (docs/decisions/036, which supersedes the
-- age limit of 017). This file is history: the current text is in supabase/schemas/20_functions.sql.
-- Confirmations already dropped for their age stay dropped: they no longer count against their
-- mailbox's bound, so sending them now could exceed it.
drop function private.release_paused_confirmations(integer, interval, interval);
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

revoke all on function private.release_paused_confirmations(integer, interval) from public, anon, authenticated;
