-- Rate limits count over a sliding window, not a fixed one. With fixed windows a client could send
-- its limit just before a window ended and again just after (twice the limit in a moment), and a
-- burst that straddled the boundary was cut in two. The estimate below is the usual sliding-window
-- counter: this window's hits plus the previous window's, weighted by how much of it still lies
-- within one window of now. Same signature, same grants (create or replace keeps them).
create or replace function private.hit_rate_limit(p_bucket text, p_limit integer, p_window interval)
returns integer
language plpgsql
as $$
declare
  v_seconds double precision := extract(epoch from p_window);
  v_now double precision := extract(epoch from now());
  v_start timestamptz := to_timestamp(floor(v_now / v_seconds) * v_seconds);
  v_elapsed double precision := v_now - extract(epoch from v_start);
  v_hits integer;
  v_previous integer;
begin
  insert into public.contact_rate_limits as r (bucket, window_start, hits)
  values (p_bucket, v_start, 1)
  on conflict (bucket, window_start) do update set hits = r.hits + 1
  returning hits into v_hits;
  select r.hits into v_previous from public.contact_rate_limits r
  where r.bucket = p_bucket and r.window_start = v_start - p_window;
  if v_hits + coalesce(v_previous, 0) * (1 - v_elapsed / v_seconds) > p_limit then
    -- At the earliest, the previous window's share has gone when this window ends.
    return greatest(1, ceil(v_seconds - v_elapsed)::integer);
  end if;
  return null;
end;
$$;
