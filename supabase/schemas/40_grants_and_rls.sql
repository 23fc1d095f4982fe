-- Grants and row-level security.

alter table public.contact_enquiries enable row level security;
alter table public.contact_deliveries enable row level security;
alter table public.contact_rate_limits enable row level security;
-- Supabase grants new public tables to anon and authenticated by default; take that back.
revoke all on public.contact_enquiries, public.contact_deliveries, public.contact_rate_limits from anon, authenticated;
revoke all on private.undeliverable_addresses, private.redelivery_state, private.mail_account_refusal, private.processed_webhook_events
  from public, anon, authenticated;
revoke all on private.undelivered_mail, private.enquiry_traffic, private.rate_limit_windows, private.undeliverable
  from public, anon, authenticated;

-- New functions in private are executable by PUBLIC by default; only the function's own role calls them.
revoke all on all functions in schema private from public, anon, authenticated;
