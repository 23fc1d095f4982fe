-- No mail stuck, none unseen (docs/decisions/014):
-- - a delivery whose claim expired after its last allowed attempt is dead ("claim expired"), so every
--   delivery is due, sent, dead, held or deliberately suppressed; none waits for ever in 'sending';
-- - the provider's message id is kept, so a failure it reports later (a Resend webhook: bounce,
--   complaint, failure, suppression) finds its delivery and makes it dead;
-- - addresses that bounced, complained or were refused for good are recorded, and get no confirmation;
-- - redelivery runs are recorded (health shows the last one), and one runs at a time (a lease that
--   works through the transaction pooler, unlike session advisory locks).

alter table public.contact_deliveries add column provider_id text;
create index contact_deliveries_provider_id on public.contact_deliveries (provider_id) where provider_id is not null;

-- Mailboxes (normalised: lowercase, no plus-tag, ASCII domain; see send-contact-email/mailbox.ts) that
-- must not be sent a confirmation. The studio's own notification is never suppressed.
create table private.undeliverable_addresses (
  mailbox text primary key,
  reason text not null,
  source text not null check (source in ('bounced', 'complained', 'failed', 'suppressed', 'refused')),
  recorded_at timestamptz not null default now()
);
revoke all on private.undeliverable_addresses from public, anon, authenticated;

create table private.redelivery_state (
  id boolean primary key default true check (id),
  lease_holder uuid,
  lease_until timestamptz,
  last_run_at timestamptz,
  last_report jsonb
);
insert into private.redelivery_state (id) values (true);
revoke all on private.redelivery_state from public, anon, authenticated;

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
-- dead, with the reason, in private.undelivered_mail. Those with attempts left are claimed again by
-- claim_deliveries (the expired claim counted as an attempt when it was made). Returns how many died.
create function private.sweep_expired_claims(p_max_attempts integer)
returns integer
language sql
as $$
  with dead as (
    update public.contact_deliveries d
    set status = 'dead', dead_at = now(), locked_until = null,
        last_error = left(concat_ws('; ', d.last_error, 'claim expired after the last allowed attempt'), 500)
    where d.status = 'sending' and d.locked_until < now() and d.attempts >= p_max_attempts
    returning 1
  )
  select count(*)::integer from dead;
$$;

-- Records a failure the provider reported after accepting the mail (a webhook). The delivery is found
-- by the provider's id, or by its enquiry and kind (the mail's tags); it becomes dead, and for a
-- bounce, complaint or suppression the mailbox is recorded as undeliverable. Returns the kind found.
create function private.record_reported_failure(
  p_provider_id text, p_enquiry uuid, p_kind text, p_mailbox text, p_source text, p_reason text
)
returns text
language plpgsql
as $$
declare
  v_kind text;
begin
  with updated as (
    update public.contact_deliveries d
    set status = 'dead', dead_at = coalesce(d.dead_at, now()), locked_until = null, last_error = left(p_reason, 500)
    where (p_provider_id is not null and d.provider_id = p_provider_id)
       or (p_enquiry is not null and d.enquiry_id = p_enquiry and d.kind = p_kind)
    returning d.kind
  )
  select min(kind) into v_kind from updated;
  if p_mailbox is not null and p_source in ('bounced', 'complained', 'suppressed') then
    insert into private.undeliverable_addresses (mailbox, reason, source)
    values (p_mailbox, left(p_reason, 500), p_source)
    on conflict (mailbox) do update set reason = excluded.reason, source = excluded.source, recorded_at = now();
  end if;
  return v_kind;
end;
$$;

-- A permanent refusal at send time (no such mailbox) also marks the address.
create function private.record_refused_address(p_mailbox text, p_reason text)
returns void
language sql
as $$
  insert into private.undeliverable_addresses (mailbox, reason, source)
  values (p_mailbox, left(p_reason, 500), 'refused')
  on conflict (mailbox) do update set reason = excluded.reason, recorded_at = now();
$$;

-- Whether pg_cron runs the redelivery job (20261124020000_redelivery_schedule.sql); null where pg_cron is
-- not installed. PL/pgSQL plans the query only when it runs, so it works where cron.job does not exist.
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

revoke all on all functions in schema private from public;
