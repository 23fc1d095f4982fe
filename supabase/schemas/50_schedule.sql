-- The redelivery schedule. A block that runs (not an object the schema diff carries: the diff tool
-- leaves pg_cron's jobs out, docs/decisions/021), kept here so the schema's text is whole.

-- Retries without hand-pasted SQL (docs/decisions/014): every 5 minutes pg_cron asks pg_net to POST
-- the function's /redeliver, which sends what is due (paced, within REDELIVERY_BUDGET_MS), the digest
-- of held enquiries, released confirmations, and applies retention. The function's URL and the
-- redelivery secret come from Supabase Vault at each run, so nothing secret is in this file or in
-- cron.job. The owner stores them once (README, Deployment):
--   select vault.create_secret('https://<ref>.supabase.co/functions/v1/send-contact-email', 'send_contact_email_url');
--   select vault.create_secret('<REDELIVERY_SECRET>', 'send_contact_email_redelivery_secret');
-- Until they are stored, each run fails in cron.job_run_details and the function's health says the
-- scheduler has not run; the function still retries after each new enquiry.
--
-- pg_net waits timeout_milliseconds for the answer: 60 s covers a whole call (REDELIVERY_BUDGET_MS is
-- at most 50 s: send-contact-email/config.ts). Where pg_cron, pg_net or Vault is not available (the
-- local PostgreSQL from npm), this block does nothing and says so.
do $schedule$
begin
  if not exists (select from pg_available_extensions where name = 'pg_cron')
     or not exists (select from pg_available_extensions where name = 'pg_net')
     or not exists (select from pg_available_extensions where name = 'supabase_vault') then
    raise notice 'pg_cron, pg_net or supabase_vault is not available on this server: redelivery is not scheduled here (the function still retries after each new enquiry)';
    return;
  end if;
  create extension if not exists pg_cron with schema pg_catalog;
  create extension if not exists pg_net with schema extensions;
  create extension if not exists supabase_vault with schema vault;
  perform cron.schedule(
    'send-contact-email-redeliver',
    '*/5 * * * *',
    $job$
      select net.http_post(
        url := (select decrypted_secret from vault.decrypted_secrets where name = 'send_contact_email_url') || '/redeliver',
        headers := jsonb_build_object(
          'content-type', 'application/json',
          'x-redelivery-secret', (select decrypted_secret from vault.decrypted_secrets where name = 'send_contact_email_redelivery_secret')),
        body := '{}'::jsonb,
        timeout_milliseconds := 60000
      );
    $job$
  );
end;
$schedule$;
