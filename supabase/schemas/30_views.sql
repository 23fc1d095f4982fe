-- Views for the owner (SQL editor; the README points here). After the functions: enquiry_traffic sums
-- the shards of the global rate (private.shards).

-- Every delivery that will not be tried again, with what it was about.
create view private.undelivered_mail as
  select d.enquiry_id, d.kind, d.attempts, d.last_error as reason, d.dead_at,
         e.created_at as enquiry_created_at, e.name, e.email, e.project_title
  from public.contact_deliveries d
  join public.contact_enquiries e on e.id = d.enquiry_id
  where d.status = 'dead'
  order by d.dead_at desc;

-- Traffic at a glance: the global rate, holds, suppressed confirmations.
create view private.enquiry_traffic as
  select
    (select count(*) from public.contact_enquiries where created_at > now() - interval '1 hour') as enquiries_last_hour,
    (select count(*) from public.contact_enquiries where created_at > now() - interval '1 day') as enquiries_last_day,
    (select count(*) from public.contact_enquiries where held and created_at > now() - interval '1 day') as held_last_day,
    (select count(*) from public.contact_deliveries where kind = 'studio' and status = 'held') as studio_mails_waiting_for_digest,
    (select count(*) from public.contact_deliveries where kind = 'confirmation' and status = 'held') as confirmations_paused,
    (select count(*) from public.contact_deliveries d join public.contact_enquiries e on e.id = d.enquiry_id
      where d.status = 'suppressed' and e.created_at > now() - interval '1 day') as confirmations_suppressed_last_day,
    (select coalesce(sum(hits), 0) from public.contact_rate_limits
      where bucket = any(private.shards('global')) and window_start > now() - interval '1 hour') as global_senders_last_hour;

-- Rate-limit windows of the last day, per sender only as a salted hash.
create view private.rate_limit_windows as
  select bucket, window_start, hits from public.contact_rate_limits
  where window_start > now() - interval '1 day'
  order by window_start desc, hits desc;

create view private.undeliverable as
  select address, source, reason, recorded_at, studio from private.undeliverable_addresses order by recorded_at desc;
