-- A refusal of the studio's own sending account: a wrong or revoked API key, a sending domain not
-- verified, a sender that is not an address, SMTP credentials refused. It is neither this mail's fault
-- nor its recipient's, and every other mail would get the same answer. So the delivery waits without
-- spending an attempt (it goes at the first run after the owner fixes the account; it never dies of it), its recipient is
-- not recorded as undeliverable, and /health reports the refusal until a mail is sent again
-- (docs/decisions/014).

-- One row at most: the latest refusal. A sent mail removes it.
create table private.mail_account_refusal (
  id boolean primary key default true check (id),
  refused_at timestamptz not null,
  reason text not null
);
revoke all on private.mail_account_refusal from public, anon, authenticated;

-- p_enquiry and p_kind are null for the studio's digest (its enquiries stay held by themselves).
create function private.record_account_refusal(p_enquiry uuid, p_kind text, p_reason text)
returns void
language sql
as $$
  update public.contact_deliveries
  set status = 'pending',
      -- The claim counted an attempt when it was made (20261124000000): give it back.
      attempts = greatest(attempts - 1, 0),
      locked_until = null,
      last_error = left(p_reason, 500),
      -- Due again at once: the next run (the scheduler's, one after an enquiry, or the owner's own call
      -- once the account is fixed) tries it; each run stops at the first refusal, so one request a run.
      next_attempt_at = now()
  where enquiry_id = p_enquiry and kind = p_kind and status = 'sending';
  insert into private.mail_account_refusal (refused_at, reason) values (now(), left(p_reason, 500))
  on conflict (id) do update set refused_at = excluded.refused_at, reason = excluded.reason;
$$;

revoke all on all functions in schema private from public;
